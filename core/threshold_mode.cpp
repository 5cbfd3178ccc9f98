#include "core/threshold_mode.hpp"

#include <array>

namespace nb::core {

std::string_view to_string(ThresholdMode mode) {
  switch (mode) {
    case ThresholdMode::automatic:
      return "auto";
    case ThresholdMode::absolute:
      return "absolute";
    case ThresholdMode::relative:
      return "relative";
  }
  return "unknown";
}

std::optional<ThresholdMode> threshold_mode_from(std::string_view name) {
  for (ThresholdMode mode :
       std::array{ThresholdMode::automatic, ThresholdMode::absolute, ThresholdMode::relative}) {
    if (to_string(mode) == name) {
      return mode;
    }
  }
  return std::nullopt;
}

}  // namespace nb::core
