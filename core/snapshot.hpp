#pragma once
// One immutable reading of the host: what the policy decides on. Built by daemon/host and
// daemon/metrics each round, or read from a snapshot file by `numabalancerd plan`.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "core/latency_kind.hpp"
#include "core/load_curve.hpp"

namespace nb::core {

struct Node {
  NodeId id = 0;
  // Absent when no provider could measure it; a zero is never a stand-in for "unknown".
  std::optional<double> read_latency_ns;
  // This node's latency, of the snapshot's kind, with little load; relative thresholds compare
  // against it. Absent until configured or learned.
  std::optional<double> baseline_read_latency_ns;
  std::optional<double> bandwidth_gbps;
  std::map<NodeId, int> distance;  // the sysfs row, self included (10)
  std::optional<Bytes> free_bytes;
  std::optional<Bytes> total_bytes;
  std::string cpus;  // a cpulist; empty for a CPU-less memory-only node
  // Bandwidth and latency pairs of past rounds, for `equalize`'s load curve; oldest first.
  std::vector<LoadPoint> load_points;

  bool memory_only() const { return cpus.empty(); }
};

struct Pool {
  std::string name;
  std::vector<NodeId> nodes;
};

// A cgroup that numabalancer treats as one unit of memory to move or evict.
struct Container {
  std::string id;  // the cgroup path relative to the cgroup root
  std::string pool;
  std::map<NodeId, Bytes> anon_bytes;

  Bytes anon_on(NodeId node) const {
    auto it = anon_bytes.find(node);
    return it == anon_bytes.end() ? 0 : it->second;
  }
};

struct Snapshot {
  TimePoint time;
  // Absent in snapshots written before kinds travelled with the numbers: those meant the seed's.
  std::optional<LatencyKind> read_latency_kind;
  std::vector<Node> nodes;
  std::vector<Pool> pools;
  std::vector<Container> containers;

  LatencyKind latency_kind() const {
    return read_latency_kind.value_or(LatencyKind::memory_controller_queue);
  }
};

}  // namespace nb::core
