#pragma once
// One round, one job and one migration report in a few lines: shared by `status`, `history`,
// `reconcile`, `watch` and `migrate`.

#include <nlohmann/json.hpp>
#include <string>

namespace nb::ctl {

// Whether a round's line carries its time: `watch` prints the event's time before it instead.
enum class RoundTime { shown, omitted };

// "#12 2026-12-02T10:00:00.000Z ready (started), node 1 -> 0: reason"; "-" for no round.
std::string round_line(const nlohmann::json& round, RoundTime time = RoundTime::shown);

// "job 3 (manual), node 1 -> 0: 1.0 GiB of 2.0 GiB at 512 MiB/s"; "none" for no job.
std::string job_line(const nlohmann::json& job);

// A full migration report: one line of totals, a row per container and per process (the biggest
// few; --json lists every one the daemon kept), then the errors; every line starts with `indent`.
std::string format_full_report(const nlohmann::json& report, const std::string& indent);

// A line per error of a full report or a summary: "error: pods/a pid 12: message (hint)".
std::string format_error_lines(const nlohmann::json& errors, const std::string& indent);

}  // namespace nb::ctl
