#pragma once
// Numbers and node lists as the explanation lines show them. Core has no fmt, and these lines are
// read by operators, so: no trailing zeros, binary units for bytes, ASCII only.

#include <string>
#include <vector>

#include "base/units.hpp"

namespace nb::core {

std::string describe_number(double value);                     // 72, 109.25, 0.625
std::string describe_bytes(Bytes bytes);                       // 512 B, 128 MiB, 1.5 GiB
std::string describe_nodes(const std::vector<NodeId>& nodes);  // "1, 3" or "none"
// With its noun: "node 3", "nodes 1, 3", "no node".
std::string describe_node_set(const std::vector<NodeId>& nodes);
std::string describe_duration(Duration duration);  // "15 min", "30 s", "250 ms"
std::string describe_age(Duration age);            // "45 s ago", "3 s in the future"

}  // namespace nb::core
