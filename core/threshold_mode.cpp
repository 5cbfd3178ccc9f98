#include "core/threshold_mode.hpp"

#include "base/enum_names.hpp"

namespace nb::core {

namespace {

constexpr EnumName<ThresholdMode> kModeNames[] = {{ThresholdMode::automatic, "auto"},
                                                  {ThresholdMode::absolute, "absolute"},
                                                  {ThresholdMode::relative, "relative"}};
static_assert(names_every_value(kModeNames));

}  // namespace

std::string_view to_string(ThresholdMode mode) {
  return name_of(kModeNames, mode);
}

std::optional<ThresholdMode> threshold_mode_from(std::string_view name) {
  return value_named(kModeNames, name);
}

}  // namespace nb::core
