#pragma once
// Topologies for the providers' tests: nodes with CPUs and distances only, as the host code
// hands them over.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/snapshot.hpp"

namespace nb::metrics::testing {

inline core::Node node(NodeId id, std::string cpus, std::map<NodeId, int> distance = {}) {
  core::Node result;
  result.id = id;
  result.cpus = std::move(cpus);
  result.distance = std::move(distance);
  return result;
}

// This machine's nodes from sysfs, for the real-host tests (cpulist and distance row).
std::vector<core::Node> host_topology();

}  // namespace nb::metrics::testing
