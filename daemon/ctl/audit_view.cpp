#include "daemon/ctl/audit_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "base/time.hpp"
#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/exit_codes.hpp"
#include "daemon/wire/audit_log_reader.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;

std::vector<std::string> round_row(const json& entry) {
  const json decision = entry.value("decision", json());
  if (!decision.is_object()) {
    return {cell_text(entry.value("time", json())),
            "round",
            cell_text(entry.value("round", json())),
            cell_text(entry.value("outcome", json())),
            "-",
            "-",
            "-",
            cell_text(entry.value("reason", json()))};
  }
  std::string detail = cell_text(decision.value("level", json()));
  if (auto reason = decision.value("reason", std::string()); !reason.empty()) {
    detail += ": " + reason;
  }
  return {cell_text(entry.value("time", json())),
          "round",
          cell_text(entry.value("round", json())),
          cell_text(entry.value("outcome", json())),
          cell_text(decision.value("source_node", json())),
          cell_nodes(decision.value("dest_nodes", json())),
          cell_bytes(decision.value("total_bytes", json())),
          detail};
}

std::vector<std::string> job_row(const json& entry) {
  const json report = entry.value("report", json());
  std::string detail;
  if (report.is_object()) {
    detail =
        fmt::format("{}, threshold {}, {} errors", cell_text(report.value("stop_reason", json())),
                    report.value("threshold_met", false) ? "met" : "not met",
                    report.value("errors", json::array()).size());
  }
  if (auto evicted = entry.value("evicted", json::array()); !evicted.empty()) {
    detail += (detail.empty() ? "" : ", ") + std::string("evicted ") + cell_nodes(evicted);
  }
  if (auto error = entry.value("error", json()); error.is_string()) {
    detail += (detail.empty() ? "" : ", ") + error.get<std::string>();
  }
  return {cell_text(entry.value("time", json())),
          "job " + cell_text(entry.value("job", json())),
          cell_text(entry.value("round", json())),
          cell_text(entry.value("outcome", json())),
          cell_text(entry.value("source_node", json())),
          cell_nodes(entry.value("dest_nodes", json())),
          cell_bytes(entry.value("moved_bytes", json())),
          detail.empty() ? "-" : detail};
}

// Who ran a state-changing command (the socket peer, or the signal) and, when it failed, why.
std::vector<std::string> command_row(const json& entry) {
  std::string detail = entry.value("via", std::string()) == "socket"
                           ? "by uid " + cell_text(entry.value("uid", json())) + " pid " +
                                 cell_text(entry.value("pid", json()))
                           : "on " + cell_text(entry.value("via", json()));
  if (auto args = entry.value("args", json()); args.is_object() && !args.empty()) {
    detail += " " + args.dump();
  }
  if (auto error = entry.value("error", json()); error.is_string()) {
    std::string reason = error.get<std::string>();
    std::replace(reason.begin(), reason.end(), '\n', ' ');
    detail += ": " + reason;
  }
  return {cell_text(entry.value("time", json())),
          cell_text(entry.value("command", json())),
          "-",
          cell_text(entry.value("result", json())),
          "-",
          "-",
          "-",
          detail};
}

std::vector<std::string> entry_row(const json& entry) {
  const std::string kind = entry.value("kind", std::string());
  if (kind == "job") {
    return job_row(entry);
  }
  return kind == "command" ? command_row(entry) : round_row(entry);
}

}  // namespace

std::string format_audit_entries(const json& result) {
  std::vector<std::vector<std::string>> rows{
      {"TIME", "KIND", "ROUND", "OUTCOME", "FROM", "TO", "BYTES", "DETAIL"}};
  for (const auto& entry : result.value("entries", json::array())) {
    rows.push_back(entry_row(entry));
  }
  std::string out = format_table(rows);
  if (auto skipped = result.value("skipped_lines", 0LL); skipped > 0) {
    out += fmt::format("({} unreadable lines skipped: torn by a crash or not an entry)\n", skipped);
  }
  if (result.value("truncated", false)) {
    out += "(the daemon stopped at its read cap; older entries were not read: narrow --since)\n";
  }
  return out;
}

int print_audit_log(const std::string& file, const std::string& since,
                    std::optional<long long> limit, bool json_output) {
  std::optional<TimePoint> from;
  if (!since.empty()) {
    auto parsed = wire::parse_since(since, std::chrono::system_clock::now());
    if (!parsed) {
      std::cerr << "numabalancerctl: " << parsed.error().message() << "\n";
      return kUsage;
    }
    from = parsed.value();
  }
  auto read = wire::read_audit_log(file, from);
  if (!read) {
    std::cerr << "numabalancerctl: " << read.error().message() << "\n";
    return kFailed;
  }
  auto& found = read->entries;
  if (limit && found.size() > static_cast<std::size_t>(*limit)) {
    found.erase(found.begin(),
                found.begin() +
                    static_cast<std::ptrdiff_t>(found.size() - static_cast<std::size_t>(*limit)));
  }
  json entries = json::array();
  for (auto& entry : found) {
    entries.push_back(std::move(entry));
  }
  json result{{"audit_log", file},
              {"since", from ? json(format_rfc3339(*from)) : json()},
              {"entries", std::move(entries)},
              {"skipped_lines", read->skipped_lines}};
  std::cout << (json_output ? result.dump(2) + "\n" : format_audit_entries(result));
  return kOk;
}

}  // namespace nb::ctl
