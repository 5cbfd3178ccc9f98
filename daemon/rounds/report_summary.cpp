#include "daemon/rounds/report_summary.hpp"

#include <chrono>

namespace nb::rounds {
namespace {

double milliseconds(std::chrono::nanoseconds value) {
  return std::chrono::duration<double, std::milli>(value).count();
}

}  // namespace

ReportSummary summarize(const actuator::MigrationReport& report) {
  return ReportSummary{
      .source_node = report.source_node,
      .dest_nodes = report.dest_nodes,
      .dry_run = report.dry_run,
      .budget = report.budget,
      .goal = report.goal,
      .threshold = report.threshold,
      .threshold_met = report.threshold_met,
      .stop_reason = report.stop_reason,
      .bytes_moved = report.bytes_moved(),
      .bytes_placed = report.bytes_placed(),
      .bytes_on_source = report.bytes_on_source(),
      .bytes_moved_to = report.bytes_moved_to(),
      .outcomes = report.outcomes(),
      .containers = report.containers.size(),
      .vanished_pids = report.vanished_pids.size(),
      .syscalls = report.syscalls(),
      .longest_call_ms = milliseconds(report.longest_call()),
      .elapsed_ms = milliseconds(report.elapsed),
      .rate_mib_per_s = report.rate_mib_per_s(),
      .errors = report.errors,
  };
}

}  // namespace nb::rounds
