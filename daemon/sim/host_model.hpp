#pragma once
// The modelled host, second by second: where each container's memory sits, the traffic that
// follows it, and the latencies that traffic causes.
//
//   traffic(n)  = background(n) + sum over containers c of bandwidth(c) x bytes(c, n) / bytes(c)
//   u(n)        = min(traffic(n) / peak(n), 0.98)
//   loaded(n)   = idle(n) x (1 + curve x u / (1 - u))
//   access(c)   = sum over n of share(c, n) x (loaded(n) + idle(n) x remote_factor x
//                                                           (distance(cpu_node(c), n) - 10))
//
// The 0.98 cap keeps a node past its peak at a finite (eight times idle, at the default curve)
// latency, as a saturated memory controller is.

#include <cstddef>
#include <string_view>
#include <vector>

#include "base/units.hpp"
#include "daemon/sim/scenario.hpp"

namespace nb::sim {

inline constexpr double kMaxUtilisation = 0.98;

struct NodeLoad {
  double traffic_gbps = 0;
  double utilisation = 0;
  double loaded_latency_ns = 0;
};

class HostModel {
 public:
  explicit HostModel(const Scenario& scenario);

  void apply(const ScenarioEvent& event);

  // By node index (the scenario's nodes, by id).
  std::vector<NodeLoad> loads() const;
  double access_latency_ns(std::size_t container, const std::vector<NodeLoad>& loads) const;

  std::size_t node_count() const { return nodes_.size(); }
  const ScenarioNode& node(std::size_t index) const { return nodes_[index]; }
  // The node's index; node_count() for an unknown id.
  std::size_t index_of(NodeId id) const;
  int distance(std::size_t from, std::size_t to) const { return distance_[from][to]; }
  Bytes free_bytes(std::size_t node) const;

  std::size_t container_count() const { return containers_.size(); }
  const ScenarioContainer& container(std::size_t index) const { return containers_[index]; }
  // The container's index; container_count() for an unknown id.
  std::size_t container_index(std::string_view id) const;
  Bytes bytes_on(std::size_t container, std::size_t node) const { return bytes_[container][node]; }
  Bytes total_bytes(std::size_t container) const;
  void move(std::size_t container, std::size_t from, std::size_t to, Bytes bytes);

 private:
  void set_memory(std::size_t container, const std::map<NodeId, Bytes>& memory);

  std::vector<ScenarioNode> nodes_;
  std::vector<std::vector<int>> distance_;
  std::vector<ScenarioContainer> containers_;
  std::vector<std::size_t> cpu_node_;      // by container
  std::vector<std::vector<Bytes>> bytes_;  // [container][node]
  double curve_ = 0;
  double remote_factor_ = 0;
};

}  // namespace nb::sim
