#include "core/strategy.hpp"

#include "base/enum_names.hpp"

namespace nb::core {

namespace {

constexpr EnumName<Strategy> kStrategyNames[] = {{Strategy::katalyst, "katalyst"},
                                                 {Strategy::equalize, "equalize"}};
static_assert(names_every_value(kStrategyNames));

}  // namespace

std::string_view to_string(Strategy strategy) {
  return name_of(kStrategyNames, strategy);
}

std::optional<Strategy> strategy_from(std::string_view name) {
  return value_named(kStrategyNames, name);
}

}  // namespace nb::core
