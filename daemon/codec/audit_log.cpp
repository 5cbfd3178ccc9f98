#include "daemon/codec/audit_log.hpp"

#include <cerrno>
#include <fstream>

#include "base/parse_units.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/codec/report_json.hpp"
#include "daemon/codec/snapshot_json.hpp"

namespace nb::codec {

namespace {

using nlohmann::json;

json node_or_null(const std::optional<NodeId>& node) {
  return node ? json(*node) : json();
}

constexpr std::string_view kTimePrefix = "{\"time\":\"";

// The time of a line written by to_audit_line, read without parsing the rest.
std::optional<TimePoint> line_time(std::string_view line) {
  if (line.substr(0, kTimePrefix.size()) != kTimePrefix) {
    return std::nullopt;
  }
  line.remove_prefix(kTimePrefix.size());
  auto quote = line.find('"');
  if (quote == std::string_view::npos) {
    return std::nullopt;
  }
  auto time = parse_time(line.substr(0, quote));
  if (!time) {
    return std::nullopt;
  }
  return time.value();
}

Status read_file(const std::filesystem::path& file, std::optional<TimePoint> since,
                 AuditEntries& out) {
  std::error_code missing;
  if (!std::filesystem::exists(file, missing)) {
    return Ok{};
  }
  std::ifstream in(file);
  if (!in) {
    return make_error(errno, "open " + file.string());
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;  // the newline that isolates a torn line at start-up
    }
    auto time = line_time(line);
    if (!time) {
      ++out.skipped_lines;
      continue;
    }
    if (since && *time < *since) {
      continue;
    }
    json entry = json::parse(line, nullptr, false);
    if (entry.is_discarded() || !entry.is_object() || !entry.contains("kind")) {
      ++out.skipped_lines;
      continue;
    }
    out.entries.push_back(std::move(entry));
  }
  if (in.bad()) {
    return make_error(errno, "read " + file.string());
  }
  return Ok{};
}

}  // namespace

json audit_round_entry(const RoundRecord& record, const core::Decision* decision) {
  return {{"time", format_time(record.time)},
          {"kind", "round"},
          {"round", record.number},
          {"trigger", record.trigger},
          {"outcome", to_string(record.outcome)},
          {"reason", record.reason},
          {"decision", decision != nullptr ? to_json(*decision) : json()}};
}

json audit_job_entry(TimePoint finished, std::uint64_t job_id, const RoundRecord& record,
                     const actuator::MigrationReport* report) {
  bool failed = record.outcome == RoundOutcome::failed;
  return {{"time", format_time(finished)},
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

std::filesystem::path rotated_audit_log(const std::filesystem::path& file) {
  auto rotated = file;
  rotated += ".1";
  return rotated;
}

Result<AuditEntries> read_audit_log(const std::filesystem::path& file,
                                    std::optional<TimePoint> since) {
  AuditEntries out;
  for (const auto& part : {rotated_audit_log(file), file}) {
    if (auto read = read_file(part, since, out); !read) {
      return read.error();
    }
  }
  return out;
}

Result<TimePoint> parse_since(std::string_view text, TimePoint now) {
  if (auto duration = parse_duration(text)) {
    return now - duration.value();
  }
  if (auto time = parse_time(text)) {
    return time.value();
  }
  return make_error(0, "since \"" + std::string(text) +
                           "\" is neither a duration (90s, 15m, 2h) nor an RFC 3339 time "
                           "(2026-12-02T10:00:00Z)");
}

}  // namespace nb::codec
