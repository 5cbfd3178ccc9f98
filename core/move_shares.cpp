#include "core/move_shares.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "base/human_format.hpp"
#include "core/ping_pong.hpp"

namespace nb::core {

std::vector<ContainerMove> share_out(const Snapshot& snapshot, const NodeView& source,
                                     bool services,
                                     const std::vector<const NodeView*>& destinations,
                                     const std::vector<Bytes>& bytes, const History& history,
                                     TimePoint now, const PolicyConfig& config, Notes& notes) {
  std::vector<const Container*> batch;
  for (const Container& container : snapshot.containers) {
    const bool movable =
        services ? is_service_pool(config, container.pool) : container.pool == config.reclaim_pool;
    if (movable && container.anon_on(source.node->id) > 0) {
      batch.push_back(&container);
    }
  }
  const Bytes container_max =
      services ? config.container_max_bytes : config.reclaim_container_max_bytes;
  std::stable_sort(batch.begin(), batch.end(), [&](const Container* a, const Container* b) {
    return a->anon_on(source.node->id) > b->anon_on(source.node->id);
  });
  std::map<std::string, Bytes> taken;
  std::vector<ContainerMove> moves;
  for (std::size_t d = 0; d < destinations.size(); ++d) {
    const NodeId to = destinations[d]->node->id;
    Bytes wanted = bytes[d];
    for (const Container* container : batch) {
      const Pool* pool = nullptr;
      for (const Pool& candidate : snapshot.pools) {
        if (candidate.name == container->pool) {
          pool = &candidate;
        }
      }
      if (wanted < kSmallestPiece || pool == nullptr ||
          std::find(pool->nodes.begin(), pool->nodes.end(), to) == pool->nodes.end()) {
        continue;
      }
      Bytes& already = taken[container->id];
      const Bytes returning = bytes_that_came_from(history, container->id, source.node->id, to, now,
                                                   config.ping_pong_window);
      if (returning > 0) {
        notes.add(container->id + ": " + format_bytes(static_cast<double>(returning)) +
                  " of it came from node " + std::to_string(to) + " within ping_pong_window " +
                  format_duration(config.ping_pong_window) + " and stays");
      }
      const Bytes room = std::max<Bytes>(
          0, std::min(container->anon_on(source.node->id) - returning, container_max) - already);
      const Bytes piece = std::min(room, wanted);
      if (piece < kSmallestPiece) {
        continue;
      }
      moves.push_back(ContainerMove{container->id, piece, {to}});
      already += piece;
      wanted -= piece;
    }
  }
  return moves;
}

}  // namespace nb::core
