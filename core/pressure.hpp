#pragma once
// Step 2: is the node with the highest read latency under pressure, and how much?

#include <string>
#include <vector>

#include "core/candidates.hpp"
#include "core/decision.hpp"
#include "core/policy_config.hpp"

namespace nb::core {

struct Pressure {
  PressureLevel level = PressureLevel::none;
  std::string why;  // the rule that fired, or why none did, with its numbers
};

// `candidates` are ordered by distance from `hottest`.
Pressure assess_pressure(const Reading& hottest, const std::vector<Candidate>& candidates,
                         const PolicyConfig& config);

}  // namespace nb::core
