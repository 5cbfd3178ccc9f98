// `plan` and `reconcile`: what a round decided.

#include <fmt/format.h>

#include <vector>

#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/result_views.hpp"
#include "daemon/ctl/round_view.hpp"

namespace nb::ctl {

using nlohmann::json;

// equalize's prediction: each node's latency and bandwidth now and after the move.
std::string format_prediction(const json& prediction) {
  if (!prediction.is_object()) {
    return "";
  }
  std::vector<std::vector<std::string>> rows{
      {"NODE", "LATENCY NOW", "PREDICTED", "BANDWIDTH NOW", "AFTER", "CURVE"}};
  for (const auto& node : prediction.value("nodes", json::array())) {
    rows.push_back({cell_text(node.value("node", json())),
                    cell_number(node.value("latency_before_ns", json())) + " ns",
                    cell_number(node.value("latency_after_ns", json())) + " ns",
                    cell_number(node.value("bandwidth_before_gbps", json())) + " GB/s",
                    cell_number(node.value("bandwidth_after_gbps", json())) + " GB/s",
                    node.value("learned_curve", false) ? "learned" : "assumed"});
  }
  std::string out = "predicted:\n" + format_table(rows);
  const json before = prediction.value("service_latency_before_ns", json());
  const json after = prediction.value("service_latency_after_ns", json());
  if (before.is_number() && after.is_number()) {
    out += fmt::format("service memory: {} -> {} ns predicted\n", cell_number(before),
                       cell_number(after));
  }
  return out;
}

std::string format_decision(const json& d) {
  std::string out = fmt::format("status: {} ({}), pressure {}\n", cell_text(field(d, "status")),
                                cell_text(d.value("reason", json())), cell_pressure(d));
  // A decision that found no destination has nothing to move: its reason says so.
  const json& dests = field(d, "dest_nodes");
  if (!field(d, "source_node").is_null() && dests.is_array() && !dests.empty()) {
    out += fmt::format(
        "move:   node {} -> {}, {} in total, threshold {}\n", cell_text(field(d, "source_node")),
        cell_nodes(d.value("dest_nodes", json::array())),
        cell_bytes(d.value("total_bytes", json())), cell_number(field(d, "threshold")));
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
  out += format_prediction(d.value("prediction", json()));
  return out;
}

std::string format_plan(const json& result) {
  if (result.contains("text")) {
    return cell_text(field(result, "text"));
  }
  return format_decision(result.value("decision", json::object()));
}

// A round still reading the host says where its outcome will show; a finished one shows it once:
// the round's number, time and outcome, then its decision (whose reason the round's carries,
// with what the daemon did about it).
std::string format_reconcile(const json& result) {
  const json& round = field(result, "round");
  if (result.value("pending", false)) {
    return fmt::format(
        "round #{} {}: reading the host; `numabalancerctl watch`, `status` or `history` show what "
        "it decides\n",
        cell_text(field(round, "number")),
        result.value("joined", false) ? "was already running, this request joins it" : "started");
  }
  const json& decision = field(result, "decision");
  if (!decision.is_object()) {
    return round_line(round) + "\n";
  }
  json shown = decision;
  if (const json& reason = field(round, "reason"); reason.is_string() && reason != "") {
    shown["reason"] = reason;
  }
  return fmt::format("round #{} {}, outcome {}\n", cell_text(field(round, "number")),
                     cell_time(field(round, "time")), cell_text(field(round, "outcome"))) +
         format_decision(shown);
}

}  // namespace nb::ctl
