#pragma once
// Step 6: which containers' memory moves this round, in the order the actuator follows.
// Reclaim-pool containers go first (their work is the cheapest to disturb), smallest first so the
// byte caps admit as many as possible; then the supported pools' containers, smallest first.

#include <cstddef>
#include <string>
#include <vector>

#include "core/decision.hpp"
#include "core/notes.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"

namespace nb::core {

struct Selection {
  std::vector<ContainerMove> migrate;
  Bytes total_bytes = 0;
  // Containers of a balanced pool left out by a size limit, each with the limit it broke ("pods/a
  // (24GiB on node 0) is not below reclaim_container_max_bytes 15GiB"): the first few, and how
  // many in all, so that a round that moves nothing can say why.
  std::vector<std::string> refused;
  std::size_t refused_count = 0;
};

// "a (…) is not below …; b (…) …, and 3 more"; empty when no container was refused.
std::string describe_refused(const Selection& selection);

// `destinations` are the decision's, in order; a container's own are those in its pool.
Selection select_containers(const Snapshot& snapshot, NodeId source,
                            const std::vector<NodeId>& destinations, const PolicyConfig& config,
                            Notes& notes);

}  // namespace nb::core
