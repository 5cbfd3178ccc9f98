#include "core/threshold_choice.hpp"

namespace nb::core {

ThresholdChoice choose_threshold_mode(ThresholdMode configured, LatencyKind kind) {
  const std::string latency = std::string(to_string(kind)) + " latency";
  if (configured == ThresholdMode::absolute) {
    return {ThresholdMode::absolute, "threshold_mode = absolute, for " + latency};
  }
  if (configured == ThresholdMode::relative) {
    return {ThresholdMode::relative, "threshold_mode = relative, for " + latency};
  }
  if (kind == LatencyKind::memory_controller_queue) {
    return {ThresholdMode::absolute,
            "auto: " + latency + " is the kind the *_read_latency_ns thresholds were tuned for"};
  }
  return {ThresholdMode::relative,
          "auto: the *_read_latency_ns thresholds were tuned for memory_controller_queue "
          "latency, not " +
              latency};
}

}  // namespace nb::core
