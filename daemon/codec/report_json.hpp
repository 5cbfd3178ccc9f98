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
//    fast_path, vanished, <the same totals>}]}]}

#include <nlohmann/json.hpp>

#include "actuator/migration_job.hpp"
#include "actuator/migration_report.hpp"

namespace nb::codec {

nlohmann::json to_json(const actuator::MigrationReport& report);
nlohmann::json to_json(const actuator::JobProgress& progress);

}  // namespace nb::codec
