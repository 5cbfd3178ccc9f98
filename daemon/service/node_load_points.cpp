#include "daemon/service/node_load_points.hpp"

namespace nb::service {

void NodeLoadPoints::observe(core::Snapshot& snapshot) {
  for (core::Node& node : snapshot.nodes) {
    if (node.read_latency_ns && node.bandwidth_gbps) {
      points_[node.id].add(core::LoadPoint{*node.bandwidth_gbps, *node.read_latency_ns});
    }
    auto it = points_.find(node.id);
    if (it != points_.end()) {
      node.load_points = it->second.points();
    }
  }
}

}  // namespace nb::service
