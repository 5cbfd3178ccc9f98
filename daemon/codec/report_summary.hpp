#pragma once
// What a round keeps of its migration report for good: the totals, bytes per destination, the
// outcome counts and the errors, without the per-container and per-process detail. Every round
// that ran a job keeps one in the state file and shows it in `status`, `history` and job events.
// Shape: {source_node, dest_nodes, dry_run, budget, goal, threshold, threshold_met, stop_reason,
// bytes_moved, bytes_placed, bytes_on_source, bytes_moved_to, outcomes{...}, containers (a
// count), vanished_pids (a count), syscalls, longest_call_ms, elapsed_ms, rate_mib_per_s,
// errors[{container, code, message, pid?, hint?}]}. threshold_met is null for a dry run.

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "actuator/migration_report.hpp"
#include "base/result.hpp"
#include "base/units.hpp"

namespace nb::codec {

struct ReportSummary {
  NodeId source_node = 0;
  std::vector<NodeId> dest_nodes;
  bool dry_run = false;
  Bytes budget = 0;
  Bytes goal = 0;
  double threshold = 0;
  bool threshold_met = false;
  actuator::StopReason stop_reason = actuator::StopReason::completed;
  Bytes bytes_moved = 0;
  Bytes bytes_placed = 0;
  Bytes bytes_on_source = 0;
  std::map<NodeId, Bytes> bytes_moved_to;
  actuator::OutcomeCounts outcomes;
  std::size_t containers = 0;
  std::size_t vanished_pids = 0;
  std::int64_t syscalls = 0;
  double longest_call_ms = 0;
  double elapsed_ms = 0;
  double rate_mib_per_s = 0;
  std::vector<actuator::ReportError> errors;
};

ReportSummary summarize(const actuator::MigrationReport& report);

nlohmann::json to_json(const ReportSummary& summary);
// Reads what to_json wrote; a missing key keeps its default, so that a summary an older version
// wrote still loads.
Result<ReportSummary> summary_from_json(const nlohmann::json& json);

}  // namespace nb::codec
