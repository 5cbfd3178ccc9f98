#pragma once
// Step 2: is the pressured node under pressure, and how much? One rule, the seed's, with its
// three thresholds either in nanoseconds (absolute) or as multiples of the node's own baseline
// (relative).

#include <string>
#include <vector>

#include "core/candidates.hpp"
#include "core/decision.hpp"
#include "core/latency_kind.hpp"
#include "core/policy_config.hpp"

namespace nb::core {

struct Pressure {
  PressureLevel level = PressureLevel::none;
  std::string why;  // the rule that fired, or why none did, with its numbers
};

// `pressured` is the node with the highest latency (absolute) or the one furthest above its
// baseline (relative); `candidates` are ordered by distance from it. `mode` is absolute or
// relative, as choose_threshold_mode() chose it for `kind`.
Pressure assess_pressure(const Reading& pressured, const std::vector<Candidate>& candidates,
                         const PolicyConfig& config, ThresholdMode mode, LatencyKind kind);

}  // namespace nb::core
