#include "tests/daemon/metrics/topology.hpp"

#include <fstream>
#include <sstream>

#include "base/range_list.hpp"
#include "daemon/metrics/text_file.hpp"

namespace nb::metrics::testing {

std::vector<core::Node> host_topology() {
  const std::filesystem::path nodes_dir = "/sys/devices/system/node";
  std::vector<core::Node> topology;
  auto online = read_trimmed(nodes_dir / "online");
  if (!online) {
    return topology;
  }
  auto ids = parse_cpu_list(*online);  // the same list syntax
  if (!ids) {
    return topology;
  }
  for (int id : *ids) {
    auto dir = nodes_dir / ("node" + std::to_string(id));
    auto cpus = read_trimmed(dir / "cpulist");
    auto distances = read_trimmed(dir / "distance");
    std::map<NodeId, int> row;
    if (distances) {
      std::istringstream in(*distances);
      auto other = ids->begin();
      int distance = 0;
      while (in >> distance && other != ids->end()) {
        row[*other++] = distance;
      }
    }
    topology.push_back(node(id, cpus ? *cpus : "", row));
  }
  return topology;
}

}  // namespace nb::metrics::testing
