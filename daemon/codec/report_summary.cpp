#include "daemon/codec/report_summary.hpp"

#include <chrono>
#include <string>

#include "daemon/codec/report_json.hpp"

namespace nb::codec {
namespace {

using nlohmann::json;

json bytes_by_node(const std::map<NodeId, Bytes>& bytes) {
  json object = json::object();
  for (const auto& [node, amount] : bytes) {
    object[std::to_string(node)] = amount;
  }
  return object;
}

std::map<NodeId, Bytes> bytes_by_node_from(const json& object) {
  std::map<NodeId, Bytes> bytes;
  for (const auto& [node, amount] : object.items()) {
    bytes[static_cast<NodeId>(std::stoi(node))] = amount.get<Bytes>();
  }
  return bytes;
}

actuator::OutcomeCounts outcomes_from(const json& object) {
  actuator::OutcomeCounts counts;
  counts.moved = object.value("moved", std::int64_t{0});
  counts.already_on_destination = object.value("already_on_destination", std::int64_t{0});
  counts.busy = object.value("busy", std::int64_t{0});
  counts.no_memory = object.value("no_memory", std::int64_t{0});
  counts.access_denied = object.value("access_denied", std::int64_t{0});
  counts.unmapped = object.value("unmapped", std::int64_t{0});
  counts.other = object.value("other", std::int64_t{0});
  return counts;
}

actuator::ReportError error_from(const json& object) {
  actuator::ReportError error;
  if (auto pid = object.find("pid"); pid != object.end() && !pid->is_null()) {
    error.pid = pid->get<int>();
  }
  error.container_id = object.value("container", std::string());
  error.code = object.value("code", 0);
  error.message = object.value("message", std::string());
  error.hint = object.value("hint", std::string());
  return error;
}

}  // namespace

json to_json(const rounds::ReportSummary& summary) {
  json errors = json::array();
  for (const actuator::ReportError& error : summary.errors) {
    errors.push_back(error_in_summary(error));
  }
  return {
      {"source_node", summary.source_node},
      {"dest_nodes", summary.dest_nodes},
      {"dry_run", summary.dry_run},
      {"budget", summary.budget},
      {"goal", summary.goal},
      {"threshold", summary.threshold},
      {"threshold_met", summary.dry_run ? json() : json(summary.threshold_met)},
      {"stop_reason", actuator::to_string(summary.stop_reason)},
      {"bytes_moved", summary.bytes_moved},
      {"bytes_placed", summary.bytes_placed},
      {"bytes_on_source", summary.bytes_on_source},
      {"bytes_moved_to", bytes_by_node(summary.bytes_moved_to)},
      {"outcomes", to_json(summary.outcomes)},
      {"containers", summary.containers},
      {"vanished_pids", summary.vanished_pids},
      {"syscalls", summary.syscalls},
      {"longest_call_ms", summary.longest_call_ms},
      {"elapsed_ms", summary.elapsed_ms},
      {"rate_mib_per_s", summary.rate_mib_per_s},
      {"errors", errors},
  };
}

Result<rounds::ReportSummary> summary_from_json(const json& object) try {
  if (!object.is_object()) {
    return make_error(0, "a report summary is not a JSON object");
  }
  rounds::ReportSummary summary;
  summary.source_node = object.value("source_node", NodeId{0});
  summary.dest_nodes = object.value("dest_nodes", std::vector<NodeId>{});
  summary.dry_run = object.value("dry_run", false);
  summary.budget = object.value("budget", Bytes{0});
  summary.goal = object.value("goal", Bytes{0});
  summary.threshold = object.value("threshold", 0.0);
  summary.threshold_met = object.value("threshold_met", json()) == true;
  const std::string stop = object.value("stop_reason", std::string("completed"));
  auto stop_reason = actuator::parse_stop_reason(stop);
  if (!stop_reason) {
    return make_error(0, "unknown stop_reason \"" + stop + "\"");
  }
  summary.stop_reason = *stop_reason;
  summary.bytes_moved = object.value("bytes_moved", Bytes{0});
  summary.bytes_placed = object.value("bytes_placed", Bytes{0});
  summary.bytes_on_source = object.value("bytes_on_source", Bytes{0});
  summary.bytes_moved_to = bytes_by_node_from(object.value("bytes_moved_to", json::object()));
  summary.outcomes = outcomes_from(object.value("outcomes", json::object()));
  summary.containers = object.value("containers", std::size_t{0});
  summary.vanished_pids = object.value("vanished_pids", std::size_t{0});
  summary.syscalls = object.value("syscalls", std::int64_t{0});
  summary.longest_call_ms = object.value("longest_call_ms", 0.0);
  summary.elapsed_ms = object.value("elapsed_ms", 0.0);
  summary.rate_mib_per_s = object.value("rate_mib_per_s", 0.0);
  for (const auto& error : object.value("errors", json::array())) {
    summary.errors.push_back(error_from(error));
  }
  return summary;
} catch (const nlohmann::json::exception& e) {
  return make_error(0, std::string("a report summary is malformed: ") + e.what());
} catch (const std::exception& e) {
  return make_error(0, std::string("a report summary is malformed: ") + e.what());
}

}  // namespace nb::codec
