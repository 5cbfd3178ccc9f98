#pragma once
// Step 1 of a round: every node's two metrics, checked. The daemon must never act on zeros or on
// a partial view, so a missing or all-zero metric ends the round before any rule runs.

#include <cstddef>
#include <string>
#include <vector>

#include "core/decision.hpp"
#include "core/refusal.hpp"
#include "core/snapshot.hpp"

namespace nb::core {

struct Reading {
  const Node* node = nullptr;
  double read_latency_ns = 0;
  double bandwidth_gbps = 0;

  NodeId id() const { return node->id; }
};

struct Readings {
  std::vector<Reading> nodes;  // ascending node id, so ties go to the lowest id as in the seed
  std::size_t max_latency = 0;
  std::size_t max_bandwidth = 0;

  const Reading& hottest() const { return nodes[max_latency]; }
  const Reading& busiest() const { return nodes[max_bandwidth]; }
  const Reading* find(NodeId id) const;
};

Refused<Readings> read_metrics(const Snapshot& snapshot);

}  // namespace nb::core
