#pragma once
// The migration report as JSON, for `numabalancerd migrate --json`, the admin API and the audit
// log. Sizes are bytes, times milliseconds (keys end in _ms), rates MiB/s; bytes per destination
// are objects keyed by node id ("1": 4096). Shape:
//   {source_node, dest_nodes, dry_run, move_shared, budget (null when unlimited), goal,
//    threshold, threshold_met, stop_reason, bytes_moved, bytes_placed, bytes_on_source,
//    bytes_moved_to, outcomes{moved, already_on_destination, busy, no_memory, access_denied,
//    unmapped, other}, pages_scanned, syscalls, longest_call_ms, elapsed_ms, rate_mib_per_s,
//    vanished_pids, dropped_destinations[{node, reason}], errors[{pid, container_id, errno,
//    message, hint}], containers[{id, cgroup, budget, <the same totals>, processes[{pid,
//    fast_path, vanished, <the same totals>}], processes_omitted (only when some were)}]}
// A dry run moves nothing and claims no threshold: threshold_met is null, and would_move_bytes
// (present only then) is what a real run would move, the bytes found on the source up to the goal.
// Job progress: {moved, placed, goal, rate_mib_per_s, elapsed_ms, container, pid}.

#include <cstddef>
#include <nlohmann/json.hpp>

#include "actuator/migration_job.hpp"
#include "actuator/migration_report.hpp"
#include "base/result.hpp"
#include "daemon/rounds/kept_report.hpp"

namespace nb::codec {

nlohmann::json to_json(const actuator::MigrationReport& report);
// At most `processes_per_container` processes per container (those with the most bytes on the
// source); a container that lost some says how many under "processes_omitted", and its totals
// still count every process. A job over thousands of processes must not grow the state file
// without bound.
nlohmann::json to_json(const actuator::MigrationReport& report,
                       std::size_t processes_per_container);
// The one encoder of the shape above; the two above keep processes and encode through it.
nlohmann::json to_json(const rounds::KeptReport& report);
// Reads what to_json(KeptReport) wrote (kept_report_reader.cpp).
Result<rounds::KeptReport> kept_report_from_json(const nlohmann::json& json);
nlohmann::json to_json(const actuator::JobProgress& progress);
nlohmann::json to_json(const actuator::OutcomeCounts& counts);

// One actuator::ReportError, two wire shapes, both already read by clients and kept apart here:
// the full report's {pid (null when none), container_id, errno, message, hint} and the round
// summary's {container, code, message, pid (when known), hint (when there is one)}.
nlohmann::json error_in_full_report(const actuator::ReportError& error);
nlohmann::json error_in_summary(const actuator::ReportError& error);

}  // namespace nb::codec
