#pragma once
// The kernel's cpulist syntax ("0-3,8,10-11"), as in node cpulists and PMU cpumask files.

#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "core/snapshot.hpp"

namespace nb::metrics {

Result<std::set<int>> parse_cpu_list(std::string_view text);

// Which node each CPU of the topology belongs to; CPU-less nodes contribute nothing.
Result<std::map<int, NodeId>> node_of_cpu(const std::vector<core::Node>& topology);

}  // namespace nb::metrics
