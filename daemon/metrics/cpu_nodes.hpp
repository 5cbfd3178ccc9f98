#pragma once
// Which node each CPU belongs to, from the topology's cpulists.

#include <map>
#include <vector>

#include "base/result.hpp"
#include "core/snapshot.hpp"

namespace nb::metrics {

// CPU-less nodes contribute nothing; a node with a bad cpulist is named in the error.
Result<std::map<int, NodeId>> node_of_cpu(const std::vector<core::Node>& topology);

}  // namespace nb::metrics
