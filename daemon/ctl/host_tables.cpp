#include "daemon/ctl/host_tables.hpp"

#include <algorithm>

#include "daemon/ctl/cells.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;
using Rows = std::vector<std::vector<std::string>>;

std::string distances(const json& node) {
  std::string out;
  const json distance = node.value("distance", json::object());
  for (const auto& [other, value] : distance.items()) {
    out += (out.empty() ? "" : " ") + other + ":" + cell_text(value);
  }
  return out.empty() ? "-" : out;
}

std::vector<std::string> node_row(const json& node, NodeColumns columns) {
  const json& cpus = field(node, "cpus");
  std::vector<std::string> row{
      cell_text(field(node, "id")),
      cpus.is_string() && cpus.get<std::string>().empty() ? "(none)" : cell_text(cpus),
      cell_bytes(field(node, "free_bytes")),
      cell_bytes(field(node, "total_bytes")),
      cell_latency(field(node, "read_latency_ns")),
      cell_bandwidth(field(node, "bandwidth_gbps"))};
  if (columns == NodeColumns::detailed) {
    row.push_back(cell_baseline(node.value("baseline", json())));
    row.push_back(distances(node));
  }
  return row;
}

}  // namespace

std::string format_node_table(const json& nodes, NodeColumns columns) {
  if (!nodes.is_array() || nodes.empty()) {
    return "no nodes: the daemon has not read the host yet\n";
  }
  Rows rows{{"NODE", "CPUS", "FREE", "TOTAL", "LATENCY", "BANDWIDTH"}};
  if (columns == NodeColumns::detailed) {
    rows[0].push_back("BASELINE");
    rows[0].push_back("DISTANCE");
  }
  for (const auto& node : nodes) {
    rows.push_back(node_row(node, columns));
  }
  return format_table(rows);
}

std::vector<int> nodes_with_memory(const json& containers) {
  std::vector<int> node_ids;
  for (const auto& container : containers.is_array() ? containers : json::array()) {
    const json anon = container.value("anon_bytes", json::object());
    for (const auto& [node, bytes] : anon.items()) {
      int id = std::stoi(node);
      if (std::find(node_ids.begin(), node_ids.end(), id) == node_ids.end()) {
        node_ids.push_back(id);
      }
    }
  }
  std::sort(node_ids.begin(), node_ids.end());
  return node_ids;
}

std::string format_container_table(const json& containers, const std::vector<int>& node_ids) {
  if (!containers.is_array() || containers.empty()) {
    return "no containers: no cgroup matched the pools; see `[[pool]] cgroups`\n";
  }
  std::vector<std::string> header{"CONTAINER", "POOL", "ANON"};
  for (int id : node_ids) {
    header.push_back("N" + std::to_string(id));
  }
  Rows rows{header};
  for (const auto& container : containers) {
    std::vector<std::string> row{cell_text(field(container, "id")),
                                 cell_text(field(container, "pool")),
                                 cell_bytes(field(container, "total_anon_bytes"))};
    const json& anon = field(container, "anon_bytes");
    for (int id : node_ids) {
      row.push_back(cell_bytes(field(anon, std::to_string(id))));
    }
    rows.push_back(std::move(row));
  }
  return format_table(rows);
}

}  // namespace nb::ctl
