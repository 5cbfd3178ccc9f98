#include "daemon/ctl/human_output.hpp"

#include <fmt/format.h>

#include <cmath>

#include "daemon/ctl/commands.hpp"
#include "daemon/ctl/round_view.hpp"

namespace nb::ctl {

using nlohmann::json;

std::string format_result(const std::string& cmd, const json& result) {
  const Command* command = find_command(cmd);
  if (command == nullptr || command->human == nullptr) {
    return result.dump(2) + "\n";
  }
  return command->human(result);
}

// The event's time leads the line; a round's own time would say nearly the same twice.
std::string format_event(const std::string& kind, const std::string& time, const json& data) {
  const std::string head = cell_time(json(time)) + " " + kind + " ";
  if (kind == "round" || kind == "job_done") {
    std::string line = head + round_line(data, RoundTime::omitted);
    if (kind == "job_done") {
      line += fmt::format(", moved {}", cell_bytes(data.value("moved_bytes", json())));
    }
    return line;
  }
  if (kind == "job_started" || kind == "job_progress") {
    return head + job_line(data);
  }
  if (kind == "eviction") {
    return fmt::format("{}{} ({}): {}", head, cell_text(field(data, "container")),
                       cell_text(field(data, "action")),
                       data.value("ok", false)
                           ? cell_text(data.value("detail", json()))
                           : "failed: " + cell_text(data.value("error", json())));
  }
  if (kind == "config_reloaded") {
    const json& restart = field(data, "restart_needed");
    return head + (restart.is_array() && !restart.empty()
                       ? "(takes effect after a restart: " + cell_nodes(restart) + ")"
                       : std::string("(all of it in effect)"));
  }
  return head + data.dump();
}

std::string job_progress_line(const json& progress) {
  double goal = progress.value("goal", 0.0);
  double moved = progress.value("moved", 0.0);
  double rate = progress.value("rate_mib_per_s", 0.0);
  std::string line = "\r" + format_bytes(moved) + " of " +
                     (goal > 0 ? format_bytes(goal) : std::string("?")) + ", " + format_rate(rate);
  if (goal > moved && rate > 0) {
    // An estimate: whole seconds.
    line += ", ETA " + format_duration_ms(std::round((goal - moved) / (rate * 1024 * 1024)) * 1000);
  }
  return line + "   ";
}

std::string job_done_text(long long job_id, const json& done) {
  const json& report = field(done, "report");
  const bool dry_run = field(report, "dry_run") == true;
  std::string out = "job " + std::to_string(job_id) + ": " + cell_text(field(done, "outcome")) +
                    ", " +
                    (dry_run ? cell_verdict(report) + ", nothing moved"
                             : "moved " + cell_bytes(field(done, "moved_bytes"))) +
                    "\n";
  if (!report.is_object() || report.empty()) {
    return out;
  }
  out += "stop reason: " + cell_text(field(report, "stop_reason")) + ", ";
  if (dry_run) {
    out += cell_bytes(field(report, "bytes_on_source")) + " found on the source\n";
  } else {
    out += cell_text(field(report, "syscalls")) + " syscalls, longest call " +
           cell_duration_ms(field(report, "longest_call_ms")) + ", " + cell_verdict(report) + "\n";
  }
  return out + format_error_lines(field(report, "errors"), "");
}

}  // namespace nb::ctl
