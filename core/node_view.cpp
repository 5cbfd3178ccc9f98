#include "core/node_view.hpp"

#include <algorithm>
#include <map>

namespace nb::core {

double idle_latency(const Node& node) {
  if (node.baseline_read_latency_ns) {
    return *node.baseline_read_latency_ns;
  }
  double idle = *node.read_latency_ns;
  for (const LoadPoint& point : node.load_points) {
    idle = std::min(idle, point.latency_ns);
  }
  return idle;
}

std::optional<LoadCurve> learned_curve(const Node& node, double idle_ns) {
  std::vector<LoadPoint> points = node.load_points;
  const LoadPoint now{*node.bandwidth_gbps, *node.read_latency_ns};
  if (std::find(points.begin(), points.end(), now) == points.end()) {
    points.push_back(now);
  }
  return fit_load_curve(points, idle_ns);
}

bool is_service_pool(const PolicyConfig& config, const std::string& pool) {
  return pool != config.reclaim_pool &&
         std::find(config.supported_pools.begin(), config.supported_pools.end(), pool) !=
             config.supported_pools.end();
}

std::vector<NodeView> view_nodes(const Snapshot& snapshot, const Readings& readings,
                                 const PolicyConfig& config) {
  std::vector<NodeView> views;
  std::map<NodeId, std::size_t> index;
  for (const Reading& reading : readings.nodes) {
    index[reading.id()] = views.size();
    NodeView view;
    view.node = reading.node;
    view.latency = reading.read_latency_ns;
    view.bandwidth = reading.bandwidth_gbps;
    views.push_back(view);
  }
  for (const Container& container : snapshot.containers) {
    const bool batch = container.pool == config.reclaim_pool;
    const bool service = is_service_pool(config, container.pool);
    for (const auto& [node, bytes] : container.anon_bytes) {
      auto it = index.find(node);
      if (it == index.end()) {
        continue;
      }
      if (batch) {
        views[it->second].batch_bytes += bytes;
      } else if (service) {
        views[it->second].service_bytes += bytes;
      }
    }
  }
  return views;
}

double remote_penalty(const Node& source, const Node& destination, double destination_idle) {
  auto it = source.distance.find(destination.id);
  const int distance = it == source.distance.end() ? 21 : it->second;
  return destination_idle * std::max(0.0, distance / 10.0 - 1);
}

}  // namespace nb::core
