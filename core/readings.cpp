#include "core/readings.hpp"

#include <algorithm>
#include <optional>
#include <utility>

namespace nb::core {

const Reading* Readings::find(NodeId id) const {
  auto it =
      std::lower_bound(nodes.begin(), nodes.end(), id,
                       [](const Reading& reading, NodeId value) { return reading.id() < value; });
  return it != nodes.end() && it->id() == id ? &*it : nullptr;
}

namespace {

// Which nodes lack a metric: all of them means no provider answers on this host (a VM, say),
// which is `no_metrics`; only some means a provider broke, which must not be mistaken for calm.
Refused<Ok> check_metric(const Snapshot& snapshot, const char* metric,
                         std::optional<double> Node::*field) {
  const Node* first_missing = nullptr;
  std::size_t missing = 0;
  for (const Node& node : snapshot.nodes) {
    if (!(node.*field).has_value()) {
      ++missing;
      if (first_missing == nullptr || node.id < first_missing->id) {
        first_missing = &node;
      }
    }
  }
  if (missing == 0) {
    return Ok{};
  }
  if (missing == snapshot.nodes.size()) {
    return Refusal{DecisionStatus::no_metrics, std::string("no node has a ") + metric};
  }
  return Refusal{DecisionStatus::failed,
                 "node " + std::to_string(first_missing->id) + " has no " + metric};
}

}  // namespace

Refused<Readings> read_metrics(const Snapshot& snapshot) {
  if (snapshot.nodes.empty()) {
    return Refusal{DecisionStatus::failed, "the snapshot has no nodes"};
  }
  for (auto [metric, field] : {std::pair{"read latency", &Node::read_latency_ns},
                               std::pair{"bandwidth", &Node::bandwidth_gbps}}) {
    if (auto checked = check_metric(snapshot, metric, field); !checked) {
      return checked.error();
    }
  }

  Readings readings;
  readings.nodes.reserve(snapshot.nodes.size());
  for (const Node& node : snapshot.nodes) {
    readings.nodes.push_back(Reading{&node, *node.read_latency_ns, *node.bandwidth_gbps});
  }
  std::sort(readings.nodes.begin(), readings.nodes.end(),
            [](const Reading& a, const Reading& b) { return a.id() < b.id(); });
  for (std::size_t i = 1; i < readings.nodes.size(); ++i) {
    if (readings.nodes[i].read_latency_ns > readings.nodes[readings.max_latency].read_latency_ns) {
      readings.max_latency = i;
    }
    if (readings.nodes[i].bandwidth_gbps > readings.nodes[readings.max_bandwidth].bandwidth_gbps) {
      readings.max_bandwidth = i;
    }
  }
  // The seed's guard: providers that cannot measure sometimes report zeros instead of nothing.
  if (readings.hottest().read_latency_ns <= 0) {
    return Refusal{DecisionStatus::no_metrics, "no node reports a read latency above 0"};
  }
  if (readings.busiest().bandwidth_gbps <= 0) {
    return Refusal{DecisionStatus::no_metrics, "no node reports a bandwidth above 0"};
  }
  return readings;
}

}  // namespace nb::core
