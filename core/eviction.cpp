#include "core/eviction.hpp"

#include <algorithm>
#include <string>

#include "core/describe.hpp"

namespace nb::core {

std::optional<ContainerEviction> pick_eviction(const Snapshot& snapshot, NodeId source,
                                               const PolicyConfig& config, Notes& notes) {
  const bool declared =
      std::any_of(snapshot.pools.begin(), snapshot.pools.end(),
                  [&](const Pool& pool) { return pool.name == config.reclaim_pool; });
  if (!declared) {
    notes.add("evict: none, the reclaim pool " + config.reclaim_pool + " is not declared");
    return std::nullopt;
  }
  const Container* chosen = nullptr;
  Bytes most = 0;
  for (const Container& container : snapshot.containers) {
    if (container.pool != config.reclaim_pool) {
      continue;
    }
    const Bytes bytes = container.anon_on(source);
    // Ties go to the lowest id so the same snapshot always names the same container.
    if (bytes > most || (bytes == most && bytes > 0 && container.id < chosen->id)) {
      chosen = &container;
      most = bytes;
    }
  }
  if (chosen == nullptr) {
    notes.add("evict: none, no container of the reclaim pool " + config.reclaim_pool +
              " has memory on node " + std::to_string(source));
    return std::nullopt;
  }
  notes.add("evict: " + chosen->id +
            " holds the most anonymous memory of the reclaim pool on node " +
            std::to_string(source) + " (" + format_bytes(most) + ")");
  return ContainerEviction{chosen->id, most};
}

}  // namespace nb::core
