#pragma once
// Which pressure thresholds apply: the nanosecond ones ([policy] *_ns), or ratios to each node's
// baseline ([policy] *_ratio). `automatic` ("auto") is absolute for memory_controller_queue
// latency, whose nanoseconds the seed's thresholds were tuned for, and relative for every other
// kind.

#include <optional>
#include <string_view>

namespace nb::core {

enum class ThresholdMode { automatic, absolute, relative };

std::string_view to_string(ThresholdMode mode);
std::optional<ThresholdMode> threshold_mode_from(std::string_view name);

}  // namespace nb::core
