#pragma once
// One immutable reading of the host: what the policy decides on. Built by daemon/host and
// daemon/metrics each round, or read from a snapshot file by `numabalancerd plan`.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"

namespace nb::core {

struct Node {
  NodeId id = 0;
  // Absent when no provider could measure it; a zero is never a stand-in for "unknown".
  std::optional<double> read_latency_ns;
  std::optional<double> bandwidth_gbps;
  std::map<NodeId, int> distance;  // the sysfs row, self included (10)
  std::optional<Bytes> free_bytes;
  std::optional<Bytes> total_bytes;
  std::string cpus;  // a cpulist; empty for a CPU-less memory-only node

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
  std::vector<Node> nodes;
  std::vector<Pool> pools;
  std::vector<Container> containers;
};

}  // namespace nb::core
