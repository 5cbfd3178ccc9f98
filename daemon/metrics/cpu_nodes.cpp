#include "daemon/metrics/cpu_nodes.hpp"

#include <string>

#include "base/range_list.hpp"

namespace nb::metrics {

Result<std::map<int, NodeId>> node_of_cpu(const std::vector<core::Node>& topology) {
  std::map<int, NodeId> owner;
  for (const auto& node : topology) {
    auto cpus = parse_cpu_list(node.cpus);
    if (!cpus) {
      return make_error(0, "node " + std::to_string(node.id) + ": " + cpus.error().context);
    }
    for (int cpu : *cpus) {
      owner[cpu] = node.id;
    }
  }
  return owner;
}

}  // namespace nb::metrics
