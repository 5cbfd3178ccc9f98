#pragma once
// The reclaim-pool container to evict when a round runs: the one holding the most anonymous
// memory on the source node. The seed named one even when none had any memory there; evicting a
// container that frees nothing on the hot node helps no one, so here there is then none.

#include <optional>

#include "core/decision.hpp"
#include "core/notes.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"

namespace nb::core {

std::optional<ContainerEviction> pick_eviction(const Snapshot& snapshot, NodeId source,
                                               const PolicyConfig& config, Notes& notes);

}  // namespace nb::core
