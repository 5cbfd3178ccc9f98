// `history`: one table whether the rows are the daemon's kept rounds (without --since, or with it
// when the daemon keeps no audit log) or the audit log's entries (a row per round, per job and
// per measured effect), so that the same column means the same thing either way.

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
using Row = std::vector<std::string>;

const Row kHeader{"TIME", "ROUND",   "KIND",  "TRIGGER", "STATUS",     "OUTCOME", "FROM",
                  "TO",   "PLANNED", "MOVED", "EFFECT",  "CONTAINERS", "DETAIL"};

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    out += (out.empty() ? "" : ",") + item;
  }
  return out.empty() ? "-" : out;
}

std::string container_ids(const json& list, const char* key) {
  std::vector<std::string> ids;
  for (const auto& item : list.is_array() ? list : json::array()) {
    ids.push_back(cell_text(key == nullptr ? item : field(item, key)));
  }
  return joined(ids);
}

std::string text_or_dash(const json& value) {
  return value.is_string() && value.get<std::string>().empty() ? "-" : cell_text(value);
}

Row kept_round_row(const json& round) {
  return {cell_time(field(round, "time")),
          cell_text(field(round, "number")),
          "round",
          cell_text(field(round, "trigger")),
          cell_text(field(round, "status")),
          cell_text(field(round, "outcome")),
          cell_text(field(round, "source_node")),
          cell_nodes(field(round, "dest_nodes")),
          cell_bytes(field(round, "planned_bytes")),
          cell_bytes(field(round, "moved_bytes")),
          cell_effect(round),
          container_ids(field(round, "containers"), nullptr),
          text_or_dash(field(round, "reason"))};
}

// An audit log's round entry in a kept round's shape, so that one row function serves both: the
// decision's fields where a kept round has its own. A round that could not read the host has no
// decision: its reason says why. Moved bytes and the effect have entries of their own.
json as_kept_round(const json& entry) {
  const json& decision = field(entry, "decision");
  const json& reason = field(entry, "reason");
  json containers = json::array();
  const json& planned = field(decision, "migrate");
  for (const auto& container : planned.is_array() ? planned : json::array()) {
    containers.push_back(field(container, "id"));
  }
  return {{"time", field(entry, "time")},
          {"number", field(entry, "round")},
          {"trigger", field(entry, "trigger")},
          {"status", field(decision, "status")},
          {"outcome", field(entry, "outcome")},
          {"source_node", field(decision, "source_node")},
          {"dest_nodes", field(decision, "dest_nodes")},
          {"planned_bytes", field(decision, "total_bytes")},
          {"containers", containers},
          {"reason", reason.is_string() && reason != "" ? reason : field(decision, "reason")}};
}

Row audit_job_row(const json& entry) {
  const json& report = field(entry, "report");
  std::vector<std::string> detail;
  if (report.is_object()) {
    detail.push_back(cell_text(field(report, "stop_reason")));
    detail.push_back(cell_verdict(report));
    const auto errors = report.value("errors", json::array()).size();
    detail.push_back(std::to_string(errors) + (errors == 1 ? " error" : " errors"));
  }
  if (const json& evicted = field(entry, "evicted"); evicted.is_array() && !evicted.empty()) {
    detail.push_back("evicted " + cell_nodes(evicted));
  }
  if (const json& error = field(entry, "error"); error.is_string()) {
    detail.push_back(error.get<std::string>());
  }
  std::string details;
  for (const auto& piece : detail) {
    details += (details.empty() ? "" : ", ") + piece;
  }
  return {cell_time(field(entry, "time")),
          cell_text(field(entry, "round")),
          "job " + cell_text(field(entry, "job")),
          cell_text(field(entry, "trigger")),
          "-",
          cell_text(field(entry, "outcome")),
          cell_text(field(entry, "source_node")),
          cell_nodes(field(entry, "dest_nodes")),
          "-",
          cell_bytes(field(entry, "moved_bytes")),
          "-",
          container_ids(field(report, "containers"), "id"),
          details.empty() ? "-" : details};
}

Row audit_effect_row(const json& entry) {
  return {cell_time(field(entry, "time")),
          cell_text(field(entry, "round")),
          "effect",
          "-",
          "-",
          cell_text(field(entry, "result")),
          cell_text(field(entry, "source_node")),
          cell_nodes(field(entry, "dest_nodes")),
          "-",
          "-",
          cell_effect(entry),
          "-",
          text_or_dash(field(entry, "effect_reason"))};
}

// Who ran a state-changing command (the socket peer, or the signal) and, when it failed, why.
Row audit_command_row(const json& entry) {
  std::string sender =
      "uid " + cell_text(field(entry, "uid")) + " pid " + cell_text(field(entry, "pid"));
  std::string detail;
  if (field(entry, "via") == "socket") {
    detail = "by " + sender;
  } else {
    detail = "on " + cell_text(field(entry, "via"));
    if (!field(entry, "uid").is_null()) {
      detail += " from " + sender;
    }
  }
  if (const json& args = field(entry, "args"); args.is_object() && !args.empty()) {
    detail += " " + args.dump();
  }
  if (const json& error = field(entry, "error"); error.is_string()) {
    std::string reason = error.get<std::string>();
    std::replace(reason.begin(), reason.end(), '\n', ' ');
    detail += ": " + reason;
  }
  return {cell_time(field(entry, "time")),
          "-",
          cell_text(field(entry, "command")),
          "-",
          "-",
          cell_text(field(entry, "result")),
          "-",
          "-",
          "-",
          "-",
          "-",
          "-",
          detail};
}

Row audit_row(const json& entry) {
  const json& kind = field(entry, "kind");
  if (kind == "job") {
    return audit_job_row(entry);
  }
  if (kind == "command") {
    return audit_command_row(entry);
  }
  return kind == "effect" ? audit_effect_row(entry) : kept_round_row(as_kept_round(entry));
}

// An empty table says why: nothing kept yet, or nothing since the time asked for.
std::string nothing_since(const json& result, const std::string& what) {
  const json& since = field(result, "since");
  return since.is_string() ? "no " + what + " since " + cell_time(since) + "\n"
                           : "no " + what + " yet\n";
}

// The kept rounds, then the newest full report among them.
std::string format_rounds(const json& result) {
  const json rounds = result.value("rounds", json::array());
  if (rounds.empty()) {
    return nothing_since(result, "rounds kept");
  }
  std::vector<Row> rows{kHeader};
  for (const auto& round : rounds) {
    rows.push_back(kept_round_row(round));
  }
  std::string out = format_table(rows);
  for (auto it = rounds.rbegin(); it != rounds.rend(); ++it) {
    if (field(*it, "full_report").is_object()) {
      out += fmt::format("\nround #{} report (the newest listed; --json shows every one kept):\n",
                         cell_text(field(*it, "number")));
      out += format_full_report(field(*it, "full_report"), "  ");
      break;
    }
  }
  return out;
}

}  // namespace

std::string format_audit_entries(const json& result) {
  const json entries = result.value("entries", json::array());
  std::string out;
  if (entries.empty()) {
    out = nothing_since(result, "entries in the audit log");
  } else {
    std::vector<Row> rows{kHeader};
    for (const auto& entry : entries) {
      rows.push_back(audit_row(entry));
    }
    out = format_table(rows);
  }
  if (auto skipped = result.value("skipped_lines", 0LL); skipped > 0) {
    out += fmt::format("({} unreadable lines skipped: torn by a crash or not an entry)\n", skipped);
  }
  if (result.value("truncated", false)) {
    out += "(the daemon stopped at its read cap; older entries were not read: narrow --since)\n";
  }
  return out;
}

std::string format_history(const json& result) {
  return result.contains("entries") ? format_audit_entries(result) : format_rounds(result);
}

}  // namespace nb::ctl
