#include "core/decision.hpp"

namespace nb::core {

std::string_view to_string(DecisionStatus status) {
  switch (status) {
    case DecisionStatus::ready:
      return "ready";
    case DecisionStatus::idle:
      return "idle";
    case DecisionStatus::cooldown:
      return "cooldown";
    case DecisionStatus::no_metrics:
      return "no_metrics";
    case DecisionStatus::calibrating:
      return "calibrating";
    case DecisionStatus::failed:
      return "failed";
  }
  return "unknown";
}

std::string_view to_string(PressureLevel level) {
  switch (level) {
    case PressureLevel::none:
      return "none";
    case PressureLevel::grace:
      return "grace";
    case PressureLevel::force:
      return "force";
  }
  return "unknown";
}

std::string_view to_string(BandwidthLevel level) {
  switch (level) {
    case BandwidthLevel::high:
      return "high";
    case BandwidthLevel::medium:
      return "medium";
    case BandwidthLevel::low:
      return "low";
  }
  return "unknown";
}

}  // namespace nb::core
