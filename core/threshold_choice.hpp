#pragma once
// Which threshold mode a round uses: the configured one, or for `auto` the one the snapshot's
// latency kind calls for.

#include <string>

#include "core/latency_kind.hpp"
#include "core/threshold_mode.hpp"

namespace nb::core {

// `mode` is absolute or relative, never automatic; `why` is for `--explain`.
struct ThresholdChoice {
  ThresholdMode mode = ThresholdMode::absolute;
  std::string why;
};

ThresholdChoice choose_threshold_mode(ThresholdMode configured, LatencyKind kind);

}  // namespace nb::core
