#pragma once
// Snapshots for policy tests, written as a table: nodes with their metrics, distances that
// default to the usual two-level sysfs matrix (10 to itself, 21 elsewhere), pools and containers.

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/decide.hpp"
#include "core/snapshot.hpp"

namespace nb::core::testing {

using namespace std::chrono_literals;

inline const TimePoint kNow = std::chrono::sys_days{std::chrono::year{2026} / 12 / 2} + 10h;

class SnapshotBuilder {
 public:
  SnapshotBuilder& node(NodeId id, std::optional<double> latency, std::optional<double> bandwidth,
                        std::string cpus = "0-3") {
    Node node;
    node.id = id;
    node.read_latency_ns = latency;
    node.bandwidth_gbps = bandwidth;
    node.cpus = std::move(cpus);
    snapshot_.nodes.push_back(std::move(node));
    return *this;
  }
  // Of a node added before.
  SnapshotBuilder& baseline(NodeId id, std::optional<double> latency) {
    for (Node& node : snapshot_.nodes) {
      if (node.id == id) {
        node.baseline_read_latency_ns = latency;
      }
    }
    return *this;
  }
  SnapshotBuilder& kind(LatencyKind kind) {
    snapshot_.read_latency_kind = kind;
    return *this;
  }
  // Symmetric, as sysfs reports it.
  SnapshotBuilder& distance(NodeId a, NodeId b, int hops) {
    distances_[{a, b}] = hops;
    distances_[{b, a}] = hops;
    return *this;
  }
  SnapshotBuilder& pool(std::string name, std::vector<NodeId> nodes) {
    snapshot_.pools.push_back(Pool{std::move(name), std::move(nodes)});
    return *this;
  }
  SnapshotBuilder& container(std::string id, std::string pool, std::map<NodeId, Bytes> anon) {
    snapshot_.containers.push_back(Container{std::move(id), std::move(pool), std::move(anon)});
    return *this;
  }

  Snapshot build() const {
    Snapshot snapshot = snapshot_;
    snapshot.time = kNow;
    for (Node& from : snapshot.nodes) {
      for (const Node& to : snapshot.nodes) {
        auto it = distances_.find({from.id, to.id});
        from.distance[to.id] = it != distances_.end() ? it->second : from.id == to.id ? 10 : 21;
      }
    }
    return snapshot;
  }

 private:
  Snapshot snapshot_;
  std::map<std::pair<NodeId, NodeId>, int> distances_;
};

// Node 0 is hot (force pressure, and it carries the most bandwidth); node 1 is a quiet
// neighbour. Both pools span both nodes.
inline SnapshotBuilder two_node_host(double hot_latency = 100) {
  SnapshotBuilder builder;
  builder.node(0, hot_latency, 30).node(1, 40, 20).pool("share", {0, 1}).pool("reclaim", {0, 1});
  return builder;
}

inline Decision decide_at_now(const Snapshot& snapshot, const PolicyConfig& config = {},
                              const History& history = {}, bool explain = false) {
  return decide(snapshot, config, history, kNow, DecideOptions{.explain = explain});
}

inline std::vector<std::string> ids_of(const std::vector<ContainerMove>& moves) {
  std::vector<std::string> ids;
  for (const ContainerMove& move : moves) {
    ids.push_back(move.id);
  }
  return ids;
}

}  // namespace nb::core::testing
