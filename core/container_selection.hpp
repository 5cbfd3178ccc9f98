#pragma once
// Step 6: which containers' memory moves this round, in the order the actuator follows.
// Reclaim-pool containers go first (their work is the cheapest to disturb), smallest first so the
// byte caps admit as many as possible; then the supported pools' containers, smallest first.

#include <vector>

#include "core/decision.hpp"
#include "core/notes.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"

namespace nb::core {

struct Selection {
  std::vector<ContainerMove> migrate;
  Bytes total_bytes = 0;
};

// `destinations` are the decision's, in order; a container's own are those in its pool.
Selection select_containers(const Snapshot& snapshot, NodeId source,
                            const std::vector<NodeId>& destinations, const PolicyConfig& config,
                            Notes& notes);

}  // namespace nb::core
