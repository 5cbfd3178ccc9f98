#include "core/decision.hpp"

#include "base/enum_names.hpp"

namespace nb::core {

namespace {

constexpr EnumName<DecisionStatus> kStatusNames[] = {{DecisionStatus::ready, "ready"},
                                                     {DecisionStatus::idle, "idle"},
                                                     {DecisionStatus::cooldown, "cooldown"},
                                                     {DecisionStatus::no_metrics, "no_metrics"},
                                                     {DecisionStatus::calibrating, "calibrating"},
                                                     {DecisionStatus::failed, "failed"}};
constexpr EnumName<PressureLevel> kPressureNames[] = {{PressureLevel::none, "none"},
                                                      {PressureLevel::grace, "grace"},
                                                      {PressureLevel::force, "force"}};
constexpr EnumName<BandwidthLevel> kBandwidthNames[] = {{BandwidthLevel::high, "high"},
                                                        {BandwidthLevel::medium, "medium"},
                                                        {BandwidthLevel::low, "low"}};
static_assert(names_every_value(kStatusNames) && names_every_value(kPressureNames) &&
              names_every_value(kBandwidthNames));

}  // namespace

std::string_view to_string(DecisionStatus status) {
  return name_of(kStatusNames, status);
}
std::string_view to_string(PressureLevel level) {
  return name_of(kPressureNames, level);
}
std::string_view to_string(BandwidthLevel level) {
  return name_of(kBandwidthNames, level);
}

}  // namespace nb::core
