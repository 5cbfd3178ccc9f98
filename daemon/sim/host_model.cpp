#include "daemon/sim/host_model.hpp"

#include <algorithm>

namespace nb::sim {

HostModel::HostModel(const Scenario& scenario)
    : nodes_(scenario.nodes),
      containers_(scenario.containers),
      curve_(scenario.curve),
      remote_factor_(scenario.remote_factor) {
  distance_.assign(nodes_.size(), std::vector<int>(nodes_.size(), 10));
  for (std::size_t from = 0; from < nodes_.size(); ++from) {
    auto row = scenario.distance.find(nodes_[from].id);
    for (std::size_t to = 0; row != scenario.distance.end() && to < nodes_.size(); ++to) {
      if (auto it = row->second.find(nodes_[to].id); it != row->second.end()) {
        distance_[from][to] = it->second;
      }
    }
  }
  bytes_.assign(containers_.size(), std::vector<Bytes>(nodes_.size(), 0));
  for (std::size_t c = 0; c < containers_.size(); ++c) {
    cpu_node_.push_back(index_of(containers_[c].cpu_node));
    set_memory(c, containers_[c].memory);
  }
}

std::size_t HostModel::index_of(NodeId id) const {
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    if (nodes_[n].id == id) {
      return n;
    }
  }
  return nodes_.size();
}

std::size_t HostModel::container_index(std::string_view id) const {
  for (std::size_t c = 0; c < containers_.size(); ++c) {
    if (containers_[c].id == id) {
      return c;
    }
  }
  return containers_.size();
}

void HostModel::set_memory(std::size_t container, const std::map<NodeId, Bytes>& memory) {
  std::fill(bytes_[container].begin(), bytes_[container].end(), 0);
  for (const auto& [id, bytes] : memory) {
    if (std::size_t n = index_of(id); n < nodes_.size()) {
      bytes_[container][n] = bytes;
    }
  }
}

void HostModel::apply(const ScenarioEvent& event) {
  if (event.node) {
    if (std::size_t n = index_of(*event.node); n < nodes_.size() && event.background_gbps) {
      nodes_[n].background_gbps = *event.background_gbps;
    }
    return;
  }
  const std::size_t c = container_index(event.container.value_or(""));
  if (c == containers_.size()) {
    return;
  }
  if (event.bandwidth_gbps) {
    containers_[c].bandwidth_gbps = *event.bandwidth_gbps;
  }
  if (event.memory) {
    set_memory(c, *event.memory);
  }
}

Bytes HostModel::total_bytes(std::size_t container) const {
  Bytes total = 0;
  for (Bytes bytes : bytes_[container]) {
    total += bytes;
  }
  return total;
}

Bytes HostModel::free_bytes(std::size_t node) const {
  Bytes used = 0;
  for (const auto& per_node : bytes_) {
    used += per_node[node];
  }
  return std::max<Bytes>(nodes_[node].memory - used, 0);
}

void HostModel::move(std::size_t container, std::size_t from, std::size_t to, Bytes bytes) {
  bytes = std::min(bytes, bytes_[container][from]);
  bytes_[container][from] -= bytes;
  bytes_[container][to] += bytes;
}

std::vector<NodeLoad> HostModel::loads() const {
  std::vector<NodeLoad> loads(nodes_.size());
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    loads[n].traffic_gbps = nodes_[n].background_gbps;
  }
  for (std::size_t c = 0; c < containers_.size(); ++c) {
    const Bytes total = total_bytes(c);
    if (total <= 0) {
      continue;
    }
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      loads[n].traffic_gbps += containers_[c].bandwidth_gbps * static_cast<double>(bytes_[c][n]) /
                               static_cast<double>(total);
    }
  }
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    NodeLoad& load = loads[n];
    load.utilisation = std::min(load.traffic_gbps / nodes_[n].peak_bandwidth_gbps, kMaxUtilisation);
    load.loaded_latency_ns =
        nodes_[n].idle_latency_ns * (1 + curve_ * load.utilisation / (1 - load.utilisation));
  }
  return loads;
}

double HostModel::access_latency_ns(std::size_t container,
                                    const std::vector<NodeLoad>& loads) const {
  const Bytes total = total_bytes(container);
  if (total <= 0) {
    return 0;
  }
  const std::size_t home = cpu_node_[container];
  double latency = 0;
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    const double share = static_cast<double>(bytes_[container][n]) / static_cast<double>(total);
    const double remote = nodes_[n].idle_latency_ns * remote_factor_ * (distance_[home][n] - 10);
    latency += share * (loads[n].loaded_latency_ns + remote);
  }
  return latency;
}

}  // namespace nb::sim
