#pragma once
// The NUMA topology from sysfs under a host root: online nodes (ids may have gaps), each node's
// distance row (self included), CPUs and memory. A node without CPUs (CXL, HBM) is memory-only.
// Read from files rather than libnuma because libnuma cannot be pointed at a captured host.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "core/snapshot.hpp"

namespace nb::host {

// Nodes in ascending id order; metrics are left empty for daemon/metrics to fill.
Result<std::vector<core::Node>> read_topology(const std::filesystem::path& host_root);

// Each piece on its own, for tests and for the scanner's error messages.
Result<std::vector<NodeId>> read_online_nodes(const std::filesystem::path& host_root);
Result<std::map<NodeId, int>> parse_distance_row(std::string_view text,
                                                 const std::vector<NodeId>& online,
                                                 std::string_view context);
struct NodeMemory {
  Bytes total_bytes = 0;
  Bytes free_bytes = 0;
};
Result<NodeMemory> parse_node_meminfo(std::string_view text, std::string_view context);

// On a host with one online node there is nowhere to move memory: the daemon only watches and
// reports. Said once at start-up and by --check-config, never as a failed round per interval.
std::optional<std::string> one_node_note(const std::vector<NodeId>& online);

}  // namespace nb::host
