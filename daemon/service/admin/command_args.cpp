#include "daemon/service/admin/command_args.hpp"

#include <cstdlib>

#include "daemon/service/admin/command_table.hpp"

namespace nb::service {

using nlohmann::json;

ArgResult<std::optional<bool>> bool_arg(const json& args, const char* name) {
  auto it = args.find(name);
  if (it == args.end() || it->is_null()) {
    return std::optional<bool>();
  }
  if (!it->is_boolean()) {
    return ArgumentError{std::string("\"") + name + "\" must be true or false"};
  }
  return std::optional<bool>(it->get<bool>());
}

ArgResult<std::optional<std::size_t>> limit_arg(const json& args) {
  auto it = args.find("limit");
  if (it == args.end() || it->is_null()) {
    return std::optional<std::size_t>();
  }
  if (!it->is_number_integer() || it->get<long long>() <= 0) {
    return ArgumentError{"\"limit\" must be a positive integer"};
  }
  return std::optional<std::size_t>(it->get<std::size_t>());
}

namespace {

bool add_node(std::vector<NodeId>& nodes, long long node) {
  if (node < 0 || node > 4095) {
    return false;
  }
  nodes.push_back(static_cast<NodeId>(node));
  return true;
}

ArgResult<std::vector<NodeId>> node_list_text(const std::string& text) {
  std::vector<NodeId> nodes;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    auto piece = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end = nullptr;
    long long node = std::strtoll(piece.c_str(), &end, 10);
    if (piece.empty() || *end != '\0' || !add_node(nodes, node)) {
      return ArgumentError{"\"to\": \"" + text + "\" is not a list of node numbers"};
    }
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return nodes;
}

}  // namespace

ArgResult<std::vector<NodeId>> node_list(const json& value) {
  std::vector<NodeId> nodes;
  if (value.is_number_integer()) {
    if (!add_node(nodes, value.get<long long>())) {
      return ArgumentError{"\"to\": node out of range"};
    }
  } else if (value.is_array()) {
    for (const auto& item : value) {
      if (!item.is_number_integer() || !add_node(nodes, item.get<long long>())) {
        return ArgumentError{"\"to\" must list node numbers"};
      }
    }
  } else if (value.is_string()) {
    auto parsed = node_list_text(value.get<std::string>());
    if (!parsed) {
      return parsed;
    }
    nodes = std::move(parsed.value());
  } else {
    return ArgumentError{"\"to\" must be a node, a list of nodes or \"1,2\""};
  }
  if (nodes.empty()) {
    return ArgumentError{"\"to\" names no node"};
  }
  return nodes;
}

codec::ErrorReply bad_request(const ArgumentError& error) {
  return bad_request(error.message);
}

}  // namespace nb::service
