#pragma once
// What a round keeps of its migration report for good: the totals, bytes per destination, the
// outcome counts and the errors, without the per-container and per-process detail. Every round
// that ran a job keeps one (in the state file, `status`, `history` and job events);
// codec/report_summary.hpp is its JSON.

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "actuator/migration_report.hpp"
#include "base/units.hpp"

namespace nb::rounds {

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

}  // namespace nb::rounds
