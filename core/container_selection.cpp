#include "core/container_selection.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/describe.hpp"

namespace nb::core {

namespace {

enum class PoolKind { unbalanced, reclaim, supported };

struct PoolEntry {
  const Pool* pool = nullptr;
  PoolKind kind = PoolKind::unbalanced;
  std::vector<NodeId> destinations;  // the decision's destinations within this pool, in order
};

struct Eligible {
  const Container* container = nullptr;
  const PoolEntry* pool = nullptr;
  Bytes bytes = 0;
};

using PoolTable = std::unordered_map<std::string_view, PoolEntry>;

PoolTable classify_pools(const Snapshot& snapshot, const std::vector<NodeId>& destinations,
                         const PolicyConfig& config, Notes& notes) {
  PoolTable table;
  for (const Pool& pool : snapshot.pools) {
    PoolEntry entry{&pool, PoolKind::unbalanced, {}};
    if (pool.name == config.reclaim_pool) {
      entry.kind = PoolKind::reclaim;
    } else if (std::find(config.supported_pools.begin(), config.supported_pools.end(), pool.name) !=
               config.supported_pools.end()) {
      entry.kind = PoolKind::supported;
    }
    for (NodeId node : destinations) {
      if (std::find(pool.nodes.begin(), pool.nodes.end(), node) != pool.nodes.end()) {
        entry.destinations.push_back(node);
      }
    }
    table.emplace(pool.name, std::move(entry));
  }

  std::vector<std::string> balanced{config.reclaim_pool};
  for (const std::string& name : config.supported_pools) {
    if (std::find(balanced.begin(), balanced.end(), name) == balanced.end()) {
      balanced.push_back(name);
    }
  }
  for (const std::string& name : balanced) {
    auto it = table.find(name);
    if (it == table.end()) {
      notes.add("pool " + name + ": not declared in the snapshot, none of its containers move");
      continue;
    }
    const PoolEntry& entry = it->second;
    if (entry.destinations.empty()) {
      notes.add("pool " + name + ": skipped, its nodes (" + describe_nodes(entry.pool->nodes) +
                ") include none of the destinations");
    } else {
      notes.add("pool " + name +
                ": takes part, destinations within it: " + describe_nodes(entry.destinations));
    }
  }
  return table;
}

// Bounds are exclusive, as in the seed: a container exactly at the minimum is too small to be
// worth a move, one exactly at the maximum too big to move in one round.
constexpr std::size_t kRefusedNamed = 3;

void refuse(Selection& selection, const std::function<std::string()>& why) {
  if (selection.refused.size() < kRefusedNamed) {
    selection.refused.push_back(why());
  }
  ++selection.refused_count;
}

bool within_bounds(const Container& container, Bytes bytes, PoolKind kind, NodeId source,
                   const PolicyConfig& config, Selection& selection, Notes& notes) {
  const bool reclaim = kind == PoolKind::reclaim;
  const Bytes min = reclaim ? config.reclaim_container_min_bytes : config.container_min_bytes;
  const Bytes max = reclaim ? config.reclaim_container_max_bytes : config.container_max_bytes;
  if (bytes > min && bytes < max) {
    return true;
  }
  const std::string prefix = reclaim ? "reclaim_container_" : "container_";
  const std::string limit = bytes <= min
                                ? "is not above " + prefix + "min_bytes " + format_bytes(min)
                                : "is not below " + prefix + "max_bytes " + format_bytes(max);
  notes.add_per_container([&] {
    return "container " + container.id + ": skipped, " + format_bytes(bytes) + " on node " +
           std::to_string(source) + " " + limit;
  });
  // A container with nothing on the source is no loss worth naming.
  if (bytes > 0) {
    refuse(selection, [&] {
      return container.id + " (" + format_bytes(bytes) + " on node " + std::to_string(source) +
             ") " + limit;
    });
  }
  return false;
}

void sort_ascending(std::vector<Eligible>& group) {
  std::sort(group.begin(), group.end(), [](const Eligible& a, const Eligible& b) {
    if (a.bytes != b.bytes) {
      return a.bytes < b.bytes;
    }
    return a.container->id < b.container->id;
  });
}

// Takes containers from `group` while the running total stays within `cap`; the group is
// ascending, so once one does not fit no later one does.
void take_within(const std::vector<Eligible>& group, Bytes cap, const char* cap_name,
                 Selection& selection, Notes& notes) {
  std::size_t taken = 0;
  for (; taken < group.size(); ++taken) {
    const Eligible& eligible = group[taken];
    const Bytes total = selection.total_bytes + eligible.bytes;
    if (total > cap) {
      if (selection.migrate.empty()) {
        refuse(selection, [&] {
          return eligible.container->id + " (" + format_bytes(eligible.bytes) + ") is over " +
                 cap_name + " " + format_bytes(cap);
        });
      }
      break;
    }
    selection.total_bytes = total;
    selection.migrate.push_back(
        ContainerMove{eligible.container->id, eligible.bytes, eligible.pool->destinations});
    notes.add_per_container([&] {
      return "container " + eligible.container->id + ": taken, " + format_bytes(eligible.bytes) +
             " (pool " + eligible.pool->pool->name + "), round total " + format_bytes(total) +
             " <= " + cap_name + " " + format_bytes(cap) + ", to " +
             describe_node_set(eligible.pool->destinations);
    });
  }
  for (std::size_t i = taken; i < group.size(); ++i) {
    notes.add_per_container([&] {
      return "container " + group[i].container->id + ": not taken, " +
             format_bytes(group[i].bytes) + " would bring the round to " +
             format_bytes(selection.total_bytes + group[i].bytes) + " > " + cap_name + " " +
             format_bytes(cap);
    });
  }
}

}  // namespace

std::string describe_refused(const Selection& selection) {
  std::string text;
  for (const std::string& why : selection.refused) {
    text += (text.empty() ? "" : "; ") + why;
  }
  if (selection.refused_count > selection.refused.size()) {
    text += ", and " + std::to_string(selection.refused_count - selection.refused.size()) + " more";
  }
  return text;
}

Selection select_containers(const Snapshot& snapshot, NodeId source,
                            const std::vector<NodeId>& destinations, const PolicyConfig& config,
                            Notes& notes) {
  Selection selection;
  const PoolTable pools = classify_pools(snapshot, destinations, config, notes);

  std::vector<Eligible> reclaim;
  std::vector<Eligible> others;
  std::size_t undeclared = 0;
  for (const Container& container : snapshot.containers) {
    auto it = pools.find(container.pool);
    if (it == pools.end()) {
      ++undeclared;
      notes.add_per_container([&] {
        return "container " + container.id + ": ignored, its pool " + container.pool +
               " is not declared";
      });
      continue;
    }
    const PoolEntry& pool = it->second;
    if (pool.kind == PoolKind::unbalanced) {
      notes.add_per_container([&] {
        return "container " + container.id + ": skipped, pool " + container.pool +
               " is neither the reclaim pool nor a supported pool";
      });
      continue;
    }
    if (pool.destinations.empty()) {
      notes.add_per_container([&] {
        return "container " + container.id + ": skipped, pool " + container.pool +
               " includes none of the destinations";
      });
      continue;
    }
    const Bytes bytes = container.anon_on(source);
    if (!within_bounds(container, bytes, pool.kind, source, config, selection, notes)) {
      continue;
    }
    (pool.kind == PoolKind::reclaim ? reclaim : others).push_back({&container, &pool, bytes});
  }
  if (undeclared > 0) {
    notes.add("containers: " + std::to_string(undeclared) +
              " ignored because their pool is not declared");
  }
  sort_ascending(reclaim);
  sort_ascending(others);

  take_within(reclaim, config.reclaim_round_max_bytes, "reclaim_round_max_bytes", selection, notes);
  const std::size_t reclaim_taken = selection.migrate.size();
  if (reclaim_taken > 0 && selection.total_bytes >= config.reclaim_round_enough_bytes) {
    notes.add("containers: reclaim containers alone move " + format_bytes(selection.total_bytes) +
              " >= reclaim_round_enough_bytes " + format_bytes(config.reclaim_round_enough_bytes) +
              ", so the round takes no others (" + std::to_string(others.size()) + " eligible)");
    for (const Eligible& eligible : others) {
      notes.add_per_container([&] {
        return "container " + eligible.container->id +
               ": not taken, the reclaim containers already fill the round";
      });
    }
    return selection;
  }
  take_within(others, config.round_max_bytes, "round_max_bytes", selection, notes);
  notes.add("containers: " + std::to_string(reclaim.size()) + " reclaim and " +
            std::to_string(others.size()) + " other containers eligible; took " +
            std::to_string(reclaim_taken) + " and " +
            std::to_string(selection.migrate.size() - reclaim_taken) + ", " +
            format_bytes(selection.total_bytes) + " in all");
  return selection;
}

}  // namespace nb::core
