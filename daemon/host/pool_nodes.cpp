#include "daemon/host/pool_nodes.hpp"

#include <string>

#include "base/range_list.hpp"
#include "daemon/host/small_file.hpp"
#include "daemon/metrics/cpu_nodes.hpp"

namespace nb::host {

std::vector<NodeId> nodes_with_cpus(const std::vector<core::Node>& topology) {
  std::vector<NodeId> nodes;
  for (const core::Node& node : topology) {
    if (!node.memory_only()) {
      nodes.push_back(node.id);
    }
  }
  return nodes;
}

Result<std::set<int>> read_effective_cpus(const CgroupLayout& layout, std::string_view cgroup_id) {
  if (!layout.cpuset_root) {
    return make_error(ENOENT, "no cpuset hierarchy");
  }
  const std::string_view file = effective_cpus_file(layout);
  std::filesystem::path cgroup = std::filesystem::path(cgroup_id).relative_path();
  std::string buffer;
  for (;;) {
    const auto path = *layout.cpuset_root / cgroup / file;
    Status read = read_small_file(path, buffer);
    if (read) {
      auto cpus = parse_cpu_list(buffer);
      if (!cpus) {
        return make_error(0, path.string() + ": " + cpus.error().context);
      }
      return std::move(cpus).value();
    }
    if (read.error().code != ENOENT || cgroup.empty()) {
      return read.error();
    }
    cgroup = cgroup.parent_path();
  }
}

Result<std::vector<NodeId>> auto_pool_nodes(const CgroupLayout& layout,
                                            const std::vector<std::string_view>& container_ids,
                                            const std::vector<core::Node>& topology) {
  const std::vector<NodeId> all_cpu_nodes = nodes_with_cpus(topology);
  if (!layout.cpuset_root || container_ids.empty()) {
    return all_cpu_nodes;
  }
  auto node_of = metrics::node_of_cpu(topology);
  if (!node_of) {
    return node_of.error();
  }
  std::set<NodeId> nodes;
  for (std::string_view id : container_ids) {
    auto cpus = read_effective_cpus(layout, id);
    if (!cpus) {
      if (vanished(cpus.error())) {
        continue;
      }
      return cpus.error();
    }
    for (int cpu : *cpus) {
      if (auto it = node_of->find(cpu); it != node_of->end()) {
        nodes.insert(it->second);
      }
    }
    // Most pools span every node; once they all are in, the other cpusets cannot add any.
    if (nodes.size() == all_cpu_nodes.size()) {
      break;
    }
  }
  if (nodes.empty()) {
    return all_cpu_nodes;
  }
  return std::vector<NodeId>(nodes.begin(), nodes.end());
}

}  // namespace nb::host
