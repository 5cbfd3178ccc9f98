#pragma once
// The daemon's JSON results and events as an operator reads them: short summaries and aligned
// tables. Each command's own view is in result_views.hpp; these pick it by name.

#include <nlohmann/json.hpp>
#include <string>

#include "daemon/ctl/cells.hpp"

namespace nb::ctl {

// The human form of one command's result ("status", "history", ...); the JSON for a command
// without one.
std::string format_result(const std::string& cmd, const nlohmann::json& result);

// One line per event in `watch`.
std::string format_event(const std::string& kind, const std::string& time,
                         const nlohmann::json& data);

// `migrate` on a terminal: "1.0 GiB of 2.0 GiB, 512 MiB/s, ETA 2 s", redrawn in place.
std::string job_progress_line(const nlohmann::json& progress);

// `migrate` at the end: the outcome, what moved and why the job stopped.
std::string job_done_text(long long job_id, const nlohmann::json& done);

}  // namespace nb::ctl
