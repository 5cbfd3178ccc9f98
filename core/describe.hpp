#pragma once
// Node lists as the explanation lines show them; numbers, sizes and durations come from
// base/human_format.hpp, which every front end shares.

#include <string>
#include <vector>

#include "base/human_format.hpp"
#include "base/units.hpp"

namespace nb::core {

std::string describe_nodes(const std::vector<NodeId>& nodes);  // "1, 3" or "none"
// With its noun: "node 3", "nodes 1, 3", "no node".
std::string describe_node_set(const std::vector<NodeId>& nodes);

}  // namespace nb::core
