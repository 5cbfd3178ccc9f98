#pragma once
// The balancing decision: a pure function of its arguments (a port of Katalyst's NUMA memory
// balancer, with the seed's bugs fixed; see README "How the policy decides").

#include "core/decision.hpp"
#include "core/history.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"

namespace nb::core {

Decision decide(const Snapshot& snapshot, const PolicyConfig& config, const History& history,
                TimePoint now);

}  // namespace nb::core
