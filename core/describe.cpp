#include "core/describe.hpp"

#include <string>
#include <vector>

namespace nb::core {

std::string describe_nodes(const std::vector<NodeId>& nodes) {
  if (nodes.empty()) {
    return "none";
  }
  std::string text;
  for (NodeId node : nodes) {
    if (!text.empty()) {
      text += ", ";
    }
    text += std::to_string(node);
  }
  return text;
}

std::string describe_node_set(const std::vector<NodeId>& nodes) {
  if (nodes.empty()) {
    return "no node";
  }
  return (nodes.size() == 1 ? "node " : "nodes ") + describe_nodes(nodes);
}

}  // namespace nb::core
