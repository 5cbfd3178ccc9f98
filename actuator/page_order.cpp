#include "actuator/page_order.hpp"

#include "base/enum_names.hpp"

namespace nb::actuator {

namespace {

constexpr EnumName<PageOrder> kOrderNames[] = {{PageOrder::automatic, "auto"},
                                               {PageOrder::hot_first, "hot_first"},
                                               {PageOrder::address, "address"}};
static_assert(names_every_value(kOrderNames));

}  // namespace

std::string_view to_string(PageOrder order) {
  return name_of(kOrderNames, order);
}

std::optional<PageOrder> parse_page_order(std::string_view name) {
  return value_named(kOrderNames, name);
}

}  // namespace nb::actuator
