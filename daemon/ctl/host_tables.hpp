#pragma once
// The node and container tables, shared by `topology`, `containers` and `top` so that each
// column sits in the same place and shows its values the same way in all three. An empty table
// says why it is empty.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nb::ctl {

// NODE CPUS FREE TOTAL LATENCY BANDWIDTH, and for `topology` BASELINE and DISTANCE after them.
enum class NodeColumns { summary, detailed };
std::string format_node_table(const nlohmann::json& nodes, NodeColumns columns);

// CONTAINER POOL ANON, then the anon bytes on each of `node_ids` (N0 N1 ...).
std::string format_container_table(const nlohmann::json& containers,
                                   const std::vector<int>& node_ids);

// Every node any container has anon memory on, in order.
std::vector<int> nodes_with_memory(const nlohmann::json& containers);

}  // namespace nb::ctl
