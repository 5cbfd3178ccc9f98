#pragma once
// A round's report summary (rounds/report_summary.hpp) as JSON. Shape: {source_node, dest_nodes,
// dry_run, budget, goal, threshold, threshold_met, stop_reason, bytes_moved, bytes_placed,
// bytes_on_source, bytes_moved_to, outcomes{...}, containers (a count), vanished_pids (a count),
// syscalls, longest_call_ms, elapsed_ms, rate_mib_per_s, errors[{container, code, message, pid?,
// hint?}]}. threshold_met is null for a dry run.

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "daemon/rounds/report_summary.hpp"

namespace nb::codec {

nlohmann::json to_json(const rounds::ReportSummary& summary);
// Reads what to_json wrote; a missing key keeps its default, so that a summary an older version
// wrote still loads.
Result<rounds::ReportSummary> summary_from_json(const nlohmann::json& json);

}  // namespace nb::codec
