#pragma once
// A pool's nodes: the configured list, or for "auto" the nodes holding the CPUs its containers
// may run on (the union of their effective cpusets). Without a cpuset hierarchy, or for a pool
// that matched no container, "auto" is every node with CPUs. Memory-only nodes are never chosen
// automatically: nothing runs there to prefer them.

#include <set>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "core/snapshot.hpp"
#include "daemon/host/cgroup_layout.hpp"

namespace nb::host {

std::vector<NodeId> nodes_with_cpus(const std::vector<core::Node>& topology);

// A cgroup missing from the cpuset hierarchy (on v1 the memory and cpuset trees differ), or
// without the file (v2 with the controller not enabled below its parent), runs on its nearest
// ancestor's CPUs, so that ancestor's file answers.
Result<std::set<int>> read_effective_cpus(const CgroupLayout& layout, std::string_view cgroup_id);

Result<std::vector<NodeId>> auto_pool_nodes(const CgroupLayout& layout,
                                            const std::vector<std::string_view>& container_ids,
                                            const std::vector<core::Node>& topology);

}  // namespace nb::host
