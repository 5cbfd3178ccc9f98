#include "daemon/ctl/human_output.hpp"

#include <fmt/format.h>

#include <sstream>

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

std::string format_event(const std::string& kind, const std::string& time, const json& data) {
  if (kind == "round" || kind == "job_done") {
    std::string line = time + " " + kind + " " + round_line(data);
    if (kind == "job_done") {
      line += fmt::format(", moved {}", cell_bytes(data.value("moved_bytes", json())));
    }
    return line;
  }
  if (kind == "job_started" || kind == "job_progress") {
    return time + " " + kind + " " + job_line(data);
  }
  if (kind == "eviction") {
    return fmt::format("{} eviction {} ({}): {}", time, cell_text(field(data, "container")),
                       cell_text(field(data, "action")),
                       data.value("ok", false)
                           ? cell_text(data.value("detail", json()))
                           : "failed: " + cell_text(data.value("error", json())));
  }
  return time + " " + kind + " " + data.dump();
}

std::string job_progress_line(const json& progress) {
  double goal = progress.value("goal", 0.0);
  double moved = progress.value("moved", 0.0);
  double rate = progress.value("rate_mib_per_s", 0.0);
  std::string line = "\r" + format_bytes(moved) + " of " +
                     (goal > 0 ? format_bytes(goal) : std::string("?")) + ", " +
                     std::to_string(static_cast<long long>(rate)) + " MiB/s";
  if (goal > moved && rate > 0) {
    line += ", ETA " +
            std::to_string(static_cast<long long>((goal - moved) / (rate * 1024 * 1024))) + " s";
  }
  return line + "   ";
}

std::string job_done_text(long long job_id, const json& done) {
  const json& report = done.value("report", json::object());
  std::ostringstream out;
  out << "job " << job_id << ": " << done.value("outcome", std::string()) << ", moved "
      << format_bytes(done.value("moved_bytes", 0.0))
      << (report.value("dry_run", false) ? " (dry-run: nothing moved)" : "") << "\n";
  if (!report.empty()) {
    // A stream, not fmt: scripts read the longest call as std::ostream prints a double.
    out << "stop reason: " << report.value("stop_reason", std::string()) << ", "
        << report.value("syscalls", 0LL) << " syscalls, longest call "
        << report.value("longest_call_ms", 0.0) << " ms, threshold "
        << (report.value("threshold_met", false) ? "met" : "not met") << "\n";
    for (const auto& error : report.value("errors", json::array())) {
      out << "error: " << error.value("message", std::string()) << " "
          << error.value("hint", std::string()) << "\n";
    }
  }
  return out.str();
}

}  // namespace nb::ctl
