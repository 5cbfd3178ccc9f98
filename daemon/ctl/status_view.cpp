// `numabalancerctl status`: a labelled line per fact, the last job's report under it.

#include <fmt/format.h>

#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/result_views.hpp"
#include "daemon/ctl/round_view.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;

std::string reading_line(const json& in_progress) {
  if (!in_progress.is_object()) {
    return "";
  }
  return fmt::format("reading:    round #{} ({}), host scan running for {}\n",
                     cell_text(in_progress.value("number", json())),
                     cell_text(in_progress.value("trigger", json())),
                     cell_duration_ms(field(in_progress, "elapsed_ms")));
}

std::string last_job_lines(const json& last_job) {
  if (!last_job.is_object()) {
    return "";
  }
  const json round = last_job.value("round", json::object());
  std::string out = fmt::format(
      "last job:   job {} ({}), finished {}: {}, moved {}\n",
      cell_text(last_job.value("id", json())), cell_text(last_job.value("kind", json())),
      cell_time(field(last_job, "finished")), cell_text(round.value("outcome", json())),
      cell_bytes(round.value("moved_bytes", json())));
  if (round.contains("full_report") && field(round, "full_report").is_object()) {
    out += format_full_report(field(round, "full_report"), "            ");
  }
  return out;
}

std::string provider_lines(const json& providers) {
  std::string out;
  for (const auto& provider : providers) {
    std::string name = provider.value("provider", std::string());
    std::string reason = provider.value("unavailable_reason", std::string());
    out += fmt::format("provider:   {} {} {}{}\n", cell_text(field(provider, "metric")),
                       name.empty() ? "-" : name, provider.value("up", false) ? "up" : "down",
                       reason.empty() ? "" : " (" + reason + ")");
  }
  return out;
}

std::string baseline_lines(const json& baselines) {
  std::string out;
  for (const auto& baseline : baselines) {
    out += fmt::format("baseline:   node {} {}\n", cell_text(baseline.value("node", json())),
                       cell_baseline(baseline));
  }
  return out;
}

}  // namespace

std::string format_status(const json& r) {
  std::string out;
  out += fmt::format("state:      {}{}\n", cell_text(field(r, "state")),
                     r.value("dry_run", false) ? " (dry-run)" : "");
  const json& uptime = field(r, "uptime_s");
  out +=
      fmt::format("pid:        {}, up {}, interval {}, {} rounds\n", cell_text(field(r, "pid")),
                  cell_duration_ms(uptime.is_number() ? json(uptime.get<double>() * 1000) : json()),
                  cell_duration_ms(field(r, "interval_ms")), cell_text(field(r, "rounds")));
  out += "last round: " + round_line(r.value("last_round", json())) + "\n";
  out += "job:        " + job_line(r.value("job", json())) + "\n";
  out += reading_line(r.value("round_in_progress", json()));
  out += last_job_lines(r.value("last_job", json()));
  if (r.contains("deferred") && !field(r, "deferred").is_null()) {
    out += "deferred:   " + round_line(field(r, "deferred")) + "\n";
  }
  out += provider_lines(r.value("providers", json::array()));
  out += baseline_lines(r.value("baselines", json::array()));
  if (r.contains("scan_error") && !field(r, "scan_error").is_null()) {
    out += "scan error: " + cell_text(field(r, "scan_error")) + "\n";
  }
  return out;
}

}  // namespace nb::ctl
