#pragma once
// Audit-log entries as the daemon writes them (one round, one job), for the tests that read the
// log back: ctl's audit view and `numabalancerctl history --since`.

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "daemon/codec/audit_log.hpp"

namespace nb::testing {

inline TimePoint minutes_ago(int minutes) {
  return std::chrono::system_clock::now() - std::chrono::minutes(minutes);
}

inline nlohmann::json round_entry(TimePoint time, std::uint64_t number) {
  rounds::RoundRecord record;
  record.number = number;
  record.time = time;
  record.trigger = "timer";
  record.outcome = rounds::RoundOutcome::started;
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.level = core::PressureLevel::force;
  decision.reason = "node 1 under force pressure";
  decision.source_node = 1;
  decision.dest_nodes = {0};
  decision.total_bytes = 512 * kMiB;
  return codec::audit_round_entry(record, &decision);
}

inline nlohmann::json job_entry(TimePoint time, std::uint64_t number) {
  rounds::RoundRecord record;
  record.number = number;
  record.trigger = "timer";
  record.outcome = rounds::RoundOutcome::partial;
  record.source_node = 1;
  record.dest_nodes = {0};
  record.moved_bytes = 256 * kMiB;
  actuator::MigrationReport report;
  report.source_node = 1;
  report.stop_reason = actuator::StopReason::deadline;
  return codec::audit_job_entry(time, 9, record, &report);
}

}  // namespace nb::testing
