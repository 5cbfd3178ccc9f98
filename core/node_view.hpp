#pragma once
// A node as the `equalize` strategy sees it: its reading, the load curve fitted for it, and the
// service and batch memory it holds; and what a byte pays for living remote to its CPUs.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "core/load_curve.hpp"
#include "core/policy_config.hpp"
#include "core/readings.hpp"
#include "core/snapshot.hpp"

namespace nb::core {

struct NodeView {
  const Node* node = nullptr;
  double latency = 0;
  double bandwidth = 0;
  LoadCurve curve;
  Bytes service_bytes = 0;
  Bytes batch_bytes = 0;

  // The latency predicted at `bandwidth_after`: the curve's change added to the reading, so that
  // a curve that misses the current reading a little does not shift every prediction.
  double predict(double bandwidth_after) const {
    return std::max(0.0, latency + curve.latency_at(bandwidth_after) - curve.latency_at(bandwidth));
  }
  // The bandwidth at which the prediction reaches `target`.
  double bandwidth_for(double target) const {
    return curve.bandwidth_at(target - latency + curve.latency_at(bandwidth));
  }
};

// Its baseline, else the lowest latency it has read.
double idle_latency(const Node& node);
// The curve fitted to the node's load points and its current reading; nullopt when they show no
// shape (load_curve.hpp).
std::optional<LoadCurve> learned_curve(const Node& node, double idle_ns);
// A supported pool other than the reclaim pool: the memory the policy protects.
bool is_service_pool(const PolicyConfig& config, const std::string& pool);
// Every node with its reading and the pools' bytes on it, by node id; curves are fitted later,
// for the nodes a move touches.
std::vector<NodeView> view_nodes(const Snapshot& snapshot, const Readings& readings,
                                 const PolicyConfig& config);
// What a byte moved from `source` to `destination` pays for being remote to its CPUs: the
// destination's idle latency times the excess of their distance over local (sysfs distances are
// relative latencies, 10 local), a bound above what hosts measure.
double remote_penalty(const Node& source, const Node& destination, double destination_idle);

}  // namespace nb::core
