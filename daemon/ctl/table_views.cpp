// The results that are tables: `history`, `containers`, `topology` and `list_commands`.

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "daemon/ctl/audit_view.hpp"
#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/result_views.hpp"
#include "daemon/ctl/round_view.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;
using Rows = std::vector<std::vector<std::string>>;

// The kept rounds, then the newest full report among them.
std::string format_rounds(const json& r) {
  Rows rows{{"#", "TIME", "TRIGGER", "STATUS", "OUTCOME", "FROM", "TO", "PLANNED", "MOVED",
             "EFFECT", "CONTAINERS"}};
  for (const auto& round : r.value("rounds", json::array())) {
    std::string containers;
    for (const auto& id : round.value("containers", json::array())) {
      containers += (containers.empty() ? "" : ",") + cell_text(id);
    }
    rows.push_back({cell_text(field(round, "number")), cell_text(field(round, "time")),
                    cell_text(field(round, "trigger")), cell_text(field(round, "status")),
                    cell_text(field(round, "outcome")), cell_text(field(round, "source_node")),
                    cell_nodes(field(round, "dest_nodes")),
                    cell_bytes(field(round, "planned_bytes")),
                    cell_bytes(field(round, "moved_bytes")), cell_effect(round),
                    containers.empty() ? "-" : containers});
  }
  std::string out = format_table(rows);
  const json rounds = r.value("rounds", json::array());
  for (auto it = rounds.rbegin(); it != rounds.rend(); ++it) {
    if (it->contains("full_report") && field((*it), "full_report").is_object()) {
      out += fmt::format("\nround #{} report (the newest listed; --json shows every one kept):\n",
                         cell_text(field((*it), "number")));
      out += format_full_report(field((*it), "full_report"), "  ");
      break;
    }
  }
  return out;
}

// Every node any container has anon memory on, in order.
std::vector<int> nodes_with_memory(const json& containers) {
  std::vector<int> node_ids;
  for (const auto& container : containers) {
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

std::vector<std::string> node_row(const json& node) {
  std::string distance;
  const json distances = node.value("distance", json::object());
  for (const auto& [other, value] : distances.items()) {
    distance += (distance.empty() ? "" : " ") + other + ":" + cell_text(value);
  }
  const json& latency = field(node, "read_latency_ns");
  const json& bandwidth = field(node, "bandwidth_gbps");
  return {cell_text(field(node, "id")),
          node.value("cpus", std::string()).empty() ? "(none)" : cell_text(field(node, "cpus")),
          cell_bytes(field(node, "free_bytes")),
          cell_bytes(field(node, "total_bytes")),
          latency.is_number() ? fmt::format("{:.1f} ns", latency.get<double>()) : "-",
          bandwidth.is_number() ? fmt::format("{:.2f} GB/s", bandwidth.get<double>()) : "-",
          cell_baseline(node.value("baseline", json())),
          distance};
}

}  // namespace

std::string format_history(const json& result) {
  return result.contains("entries") ? format_audit_entries(result) : format_rounds(result);
}

std::string format_containers(const json& r) {
  const std::vector<int> node_ids = nodes_with_memory(r.value("containers", json::array()));
  std::vector<std::string> header{"CONTAINER", "POOL", "ANON"};
  for (int id : node_ids) {
    header.push_back("N" + std::to_string(id));
  }
  Rows rows{header};
  for (const auto& container : r.value("containers", json::array())) {
    std::vector<std::string> row{cell_text(field(container, "id")),
                                 cell_text(field(container, "pool")),
                                 cell_bytes(field(container, "total_anon_bytes"))};
    const json& anon = container.value("anon_bytes", json::object());
    for (int id : node_ids) {
      row.push_back(cell_bytes(anon.value(std::to_string(id), json())));
    }
    rows.push_back(std::move(row));
  }
  return format_table(rows);
}

std::string format_topology(const json& r) {
  Rows rows{{"NODE", "CPUS", "FREE", "TOTAL", "LATENCY", "BANDWIDTH", "BASELINE", "DISTANCE"}};
  for (const auto& node : r.value("nodes", json::array())) {
    rows.push_back(node_row(node));
  }
  std::string out = format_table(rows);
  for (const auto& pool : r.value("pools", json::array())) {
    out += fmt::format("pool {}: nodes {}\n", cell_text(field(pool, "name")),
                       cell_nodes(field(pool, "nodes")));
  }
  return out;
}

std::string format_list_commands(const json& result) {
  Rows rows{{"COMMAND", "CHANGES STATE", "WHAT IT DOES"}};
  for (const auto& command : result.is_array() ? result : json::array()) {
    rows.push_back({cell_text(field(command, "name")),
                    command.value("mutating", false) ? "yes" : "no",
                    cell_text(field(command, "help"))});
  }
  return format_table(rows);
}

}  // namespace nb::ctl
