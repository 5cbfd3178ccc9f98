// `plan` and `reconcile`: what a round decided.

#include <fmt/format.h>

#include <vector>

#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/result_views.hpp"
#include "daemon/ctl/round_view.hpp"

namespace nb::ctl {

using nlohmann::json;

std::string format_decision(const json& d) {
  std::string out =
      fmt::format("status: {} ({}), level {}\n", cell_text(field(d, "status")),
                  cell_text(d.value("reason", json())), cell_text(d.value("level", json())));
  if (d.contains("source_node") && !field(d, "source_node").is_null()) {
    out += fmt::format(
        "move:   node {} -> {}, {} in total, threshold {}\n", cell_text(field(d, "source_node")),
        cell_nodes(d.value("dest_nodes", json::array())),
        cell_bytes(d.value("total_bytes", json())), cell_text(d.value("threshold", json())));
  }
  std::vector<std::vector<std::string>> rows{{"CONTAINER", "ON SOURCE", "TO"}};
  for (const auto& move : d.value("migrate", json::array())) {
    rows.push_back({cell_text(move.value("id", json())),
                    cell_bytes(move.value("bytes_on_source", json())),
                    cell_nodes(move.value("dest_nodes", json::array()))});
  }
  if (rows.size() > 1) {
    out += format_table(rows);
  }
  for (const auto& evict : d.value("evict", json::array())) {
    out += "evict:  " + cell_text(evict.value("id", json())) + "\n";
  }
  return out;
}

std::string format_plan(const json& result) {
  if (result.contains("text")) {
    return cell_text(field(result, "text"));
  }
  return format_decision(result.value("decision", json::object()));
}

// A round still reading the host says where its outcome will show; a finished one shows it.
std::string format_reconcile(const json& result) {
  if (result.value("pending", false)) {
    const json round = result.value("round", json::object());
    return fmt::format(
        "round #{} {}: reading the host; `numabalancerctl watch`, `status` or `history` show what "
        "it decides\n",
        cell_text(round.value("number", json())),
        result.value("joined", false) ? "was already running, this request joins it" : "started");
  }
  std::string out = round_line(result.value("round", json())) + "\n";
  if (result.contains("decision")) {
    out += format_decision(field(result, "decision"));
  }
  return out;
}

}  // namespace nb::ctl
