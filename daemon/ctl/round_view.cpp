#include "daemon/ctl/round_view.hpp"

#include "base/time.hpp"
#include "daemon/wire/round_line.hpp"

#include <fmt/format.h>

#include <vector>

#include "daemon/ctl/cells.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;

std::string bytes_by_node(const json& by_node) {
  std::string out;
  if (by_node.is_object()) {
    for (const auto& [node, bytes] : by_node.items()) {
      out += (out.empty() ? "" : " ") + node + ":" + cell_bytes(bytes);
    }
  }
  return out.empty() ? "-" : out;
}

// Pages the job asked to move that stayed where they were.
std::string not_moved(const json& outcomes) {
  long long count = 0;
  for (const char* key : {"busy", "no_memory", "access_denied", "other"}) {
    count += outcomes.value(key, 0LL);
  }
  return count == 0 ? "-" : std::to_string(count) + " pages";
}

std::vector<std::string> report_row(std::string name, const json& part) {
  return {std::move(name),
          cell_bytes(part.value("bytes_on_source", json())),
          cell_bytes(part.value("bytes_moved", json())),
          bytes_by_node(part.value("bytes_moved_to", json())),
          not_moved(part.value("outcomes", json::object())),
          cell_text(part.value("syscalls", json()))};
}

constexpr std::size_t kProcessesShown = 5;

using Rows = std::vector<std::vector<std::string>>;

// The container's row, then its biggest processes and how many more there were.
void add_container_rows(const json& container, Rows& rows) {
  rows.push_back(report_row(cell_text(container.value("id", json())), container));
  const json processes = container.value("processes", json::array());
  std::size_t shown = 0;
  for (const auto& process : processes) {
    if (shown == kProcessesShown) {
      break;
    }
    std::string name = "  pid " + cell_text(process.value("pid", json()));
    if (process.value("vanished", false)) {
      name += " (exited)";
    }
    rows.push_back(report_row(std::move(name), process));
    ++shown;
  }
  auto hidden = processes.size() - shown + container.value("processes_omitted", std::size_t{0});
  if (hidden > 0) {
    rows.push_back({fmt::format("  ({} more processes)", hidden), "", "", "", "", ""});
  }
}

std::string indented(const std::string& text, const std::string& indent) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    out += indent + text.substr(start, end - start + 1);
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string round_line(const json& round, RoundTime time) {
  if (!round.is_object()) {
    return "-";
  }
  // A reply from another version may lack a field or carry it in another type: the line shows
  // what it can read.
  auto text = [&](const char* key) {
    const json& value = field(round, key);
    return value.is_string() ? value.get<std::string>() : std::string();
  };
  wire::RoundSummary summary;
  if (const json& number = field(round, "number");
      number.is_number_integer() && number.get<std::int64_t>() >= 0) {
    summary.number = number.get<std::uint64_t>();
  }
  if (auto at = parse_rfc3339(text("time"))) {
    summary.time = *at;
  }
  summary.status = text("status");
  summary.outcome = text("outcome");
  if (const json& source = field(round, "source_node"); source.is_number_integer()) {
    summary.source_node = source.get<NodeId>();
  }
  if (const json& nodes = field(round, "dest_nodes"); nodes.is_array()) {
    for (const json& node : nodes) {
      if (node.is_number_integer()) {
        summary.dest_nodes.push_back(node.get<NodeId>());
      }
    }
  }
  summary.reason = text("reason");
  return wire::round_line(summary, time == RoundTime::shown
                                       ? wire::RoundLineStyle::numbered_with_time
                                       : wire::RoundLineStyle::numbered);
}

std::string job_line(const json& job) {
  if (!job.is_object()) {
    return "none";
  }
  const json& progress = job.value("progress", json::object());
  std::string goal = progress.value("goal", 0LL) > 0 ? cell_bytes(field(progress, "goal")) : "?";
  return fmt::format("job {} ({}{}), node {} -> {}: {} of {} at {}{}", cell_text(field(job, "id")),
                     cell_text(field(job, "kind")), job.value("dry_run", false) ? ", dry run" : "",
                     cell_text(field(job, "source_node")), cell_nodes(field(job, "dest_nodes")),
                     cell_bytes(progress.value("moved", json(0))), goal,
                     format_rate(progress.value("rate_mib_per_s", 0.0)),
                     job.value("cancel_requested", false) ? " (cancelling)" : "");
}

std::string format_full_report(const json& report, const std::string& indent) {
  std::string out = fmt::format("{}{}, {} moved of {} goal, {}, {} syscalls in {}\n", indent,
                                cell_text(report.value("stop_reason", json())),
                                cell_bytes(report.value("bytes_moved", json())),
                                cell_bytes(report.value("goal", json())), cell_verdict(report),
                                cell_text(report.value("syscalls", json())),
                                cell_duration_ms(field(report, "elapsed_ms")));
  Rows rows{{"CONTAINER / PID", "ON SOURCE", "MOVED", "MOVED TO", "NOT MOVED", "SYSCALLS"}};
  for (const auto& container : report.value("containers", json::array())) {
    add_container_rows(container, rows);
  }
  if (rows.size() > 1) {
    out += indented(format_table(rows), indent);
  }
  return out + format_error_lines(field(report, "errors"), indent);
}

// The full report names the container `container_id`, the summary `container`.
std::string format_error_lines(const json& errors, const std::string& indent) {
  std::string out;
  for (const auto& error : errors.is_array() ? errors : json::array()) {
    const json& full = field(error, "container_id");
    std::string where = cell_text(full.is_null() ? field(error, "container") : full);
    // A single process's job is named after it already: "pid 42".
    if (const json& pid = field(error, "pid"); !pid.is_null() && where != "pid " + cell_text(pid)) {
      where += " pid " + cell_text(pid);
    }
    const json& hint = field(error, "hint");
    const bool hinted = hint.is_string() && hint != "";
    out += indent + "error: " + (where == "-" ? "" : where + ": ") +
           cell_text(field(error, "message")) +
           (hinted ? " (" + hint.get<std::string>() + ")" : "") + "\n";
  }
  return out;
}

}  // namespace nb::ctl
