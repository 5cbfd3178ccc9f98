#include "daemon/codec/audit_log.hpp"

#include "base/time.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/codec/effect_json.hpp"
#include "daemon/codec/report_json.hpp"
#include "daemon/codec/snapshot_json.hpp"

namespace nb::codec {

namespace {

using nlohmann::json;

json node_or_null(const std::optional<NodeId>& node) {
  return node ? json(*node) : json();
}

}  // namespace

json audit_round_entry(const RoundRecord& record, const core::Decision* decision) {
  json entry{{"time", format_rfc3339(record.time)},
             {"kind", "round"},
             {"round", record.number},
             {"trigger", record.trigger},
             {"outcome", to_string(record.outcome)},
             {"reason", record.reason},
             {"decision", decision != nullptr ? to_json(*decision) : json()}};
  if (record.outcome != RoundOutcome::started) {
    entry["acted"] = false;
  }
  return entry;
}

json audit_job_entry(TimePoint finished, std::uint64_t job_id, const RoundRecord& record,
                     const actuator::MigrationReport* report) {
  bool failed = record.outcome == RoundOutcome::failed;
  return {{"time", format_rfc3339(finished)},
          {"kind", "job"},
          {"job", job_id},
          {"round", record.number},
          {"trigger", record.trigger},
          {"outcome", to_string(record.outcome)},
          {"source_node", node_or_null(record.source_node)},
          {"dest_nodes", record.dest_nodes},
          {"moved_bytes", record.moved_bytes},
          {"evicted", record.evicted},
          {"error", failed ? json(record.reason) : json()},
          {"report", report != nullptr ? to_json(*report) : json()}};
}

json audit_effect_entry(TimePoint measured, const RoundRecord& record) {
  json entry{{"time", format_rfc3339(measured)},
             {"kind", "effect"},
             {"round", record.number},
             {"source_node", node_or_null(record.source_node)},
             {"dest_nodes", record.dest_nodes},
             {"result", effect_result(record)},
             {"effect", record.effect ? to_json(*record.effect, record.effect_measured) : json()}};
  if (!record.effect_reason.empty()) {
    entry["effect_reason"] = record.effect_reason;
  }
  return entry;
}

json audit_command_entry(TimePoint time, const CommandAudit& command) {
  auto optional = [](const auto& value) { return value ? json(*value) : json(); };
  return {{"time", format_rfc3339(time)},
          {"kind", "command"},
          {"command", command.command},
          {"via", command.via},
          {"args", command.args},
          {"uid", optional(command.uid)},
          {"pid", optional(command.pid)},
          {"result", command.error ? "failed" : "ok"},
          {"error", optional(command.error)}};
}

std::string to_audit_line(const json& entry) {
  auto dump = [](const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
  };
  std::string line = "{\"time\":" + dump(entry.value("time", json(""))) +
                     ",\"kind\":" + dump(entry.value("kind", json("")));
  for (const auto& [key, value] : entry.items()) {
    if (key != "time" && key != "kind") {
      line += "," + dump(json(key)) + ":" + dump(value);
    }
  }
  return line + "}\n";
}

}  // namespace nb::codec
