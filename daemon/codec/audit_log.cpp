#include "daemon/codec/audit_log.hpp"

#include "base/time.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/codec/effect_json.hpp"
#include "daemon/codec/report_json.hpp"
#include "daemon/codec/snapshot_json.hpp"

namespace nb::codec {

using nlohmann::json;

// Each entry is a view of the round's one encoding, with what the entry adds.
json audit_round_entry(const rounds::RoundRecord& record, const core::Decision* decision) {
  json entry = round_fields(record, {"time", "trigger", "outcome", "reason"});
  entry["kind"] = "round";
  entry["round"] = record.number;
  entry["decision"] = decision != nullptr ? to_json(*decision) : json();
  if (record.outcome != rounds::RoundOutcome::started) {
    entry["acted"] = false;
  }
  return entry;
}

json audit_job_entry(TimePoint finished, std::uint64_t job_id, const rounds::RoundRecord& record,
                     const actuator::MigrationReport* report) {
  json entry = round_fields(
      record, {"trigger", "outcome", "source_node", "dest_nodes", "moved_bytes", "evicted"});
  entry["time"] = format_rfc3339(finished);
  entry["kind"] = "job";
  entry["job"] = job_id;
  entry["round"] = record.number;
  entry["error"] = record.outcome == rounds::RoundOutcome::failed ? json(record.reason) : json();
  entry["report"] = report != nullptr ? to_json(*report) : json();
  return entry;
}

json audit_effect_entry(TimePoint measured, const rounds::RoundRecord& record) {
  json entry = round_fields(record, {"source_node", "dest_nodes", "effect", "effect_reason"});
  entry["time"] = format_rfc3339(measured);
  entry["kind"] = "effect";
  entry["round"] = record.number;
  const auto result = rounds::effect_result(record);
  entry["result"] = result ? to_string(*result) : "";
  entry.emplace("effect", nullptr);
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
