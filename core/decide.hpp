#pragma once
// The balancing decision: a pure function of its arguments (a port of Katalyst's NUMA memory
// balancer, with the seed's bugs fixed; see README "How the policy decides").

#include "core/decision.hpp"
#include "core/history.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"

namespace nb::core {

struct DecideOptions {
  // Adds a line per container (taken, or skipped and why) to Decision::explanation. The rule and
  // candidate lines are always there; per-container lines cost a string each, so live rounds on
  // hosts with thousands of cgroups leave this off.
  bool explain = false;
};

Decision decide(const Snapshot& snapshot, const PolicyConfig& config, const History& history,
                TimePoint now);
Decision decide(const Snapshot& snapshot, const PolicyConfig& config, const History& history,
                TimePoint now, const DecideOptions& options);

}  // namespace nb::core
