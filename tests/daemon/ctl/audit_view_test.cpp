// `history --since` as a table: a row per round and per job of the audit log.

#include "daemon/ctl/audit_view.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/codec/audit_log.hpp"

namespace nb::ctl {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

TimePoint minutes_ago(int minutes) {
  return std::chrono::system_clock::now() - std::chrono::minutes(minutes);
}

json round_entry(TimePoint time, std::uint64_t number) {
  codec::RoundRecord record;
  record.number = number;
  record.time = time;
  record.trigger = "timer";
  record.outcome = codec::RoundOutcome::started;
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.level = core::PressureLevel::force;
  decision.reason = "node 1 under force pressure";
  decision.source_node = 1;
  decision.dest_nodes = {0};
  decision.total_bytes = 512 * kMiB;
  return codec::audit_round_entry(record, &decision);
}

json job_entry(TimePoint time, std::uint64_t number) {
  codec::RoundRecord record;
  record.number = number;
  record.trigger = "timer";
  record.outcome = codec::RoundOutcome::partial;
  record.source_node = 1;
  record.dest_nodes = {0};
  record.moved_bytes = 256 * kMiB;
  actuator::MigrationReport report;
  report.source_node = 1;
  report.stop_reason = actuator::StopReason::deadline;
  return codec::audit_job_entry(time, 9, record, &report);
}

TEST(AuditView, ShowsRoundsAndJobsAsRows) {
  json result{{"entries", {round_entry(minutes_ago(5), 12), job_entry(minutes_ago(4), 12)}},
              {"skipped_lines", 1}};
  auto text = format_audit_entries(result);
  EXPECT_THAT(text, HasSubstr("KIND"));
  EXPECT_THAT(text, HasSubstr("force: node 1 under force pressure"));
  EXPECT_THAT(text, HasSubstr("512.0 MiB"));
  EXPECT_THAT(text, HasSubstr("job 9"));
  EXPECT_THAT(text, HasSubstr("threshold not met"));
  EXPECT_THAT(text, HasSubstr("1 unreadable lines skipped"));
}

TEST(AuditView, NoSkippedLinesNoFootnote) {
  auto text = format_audit_entries(json{{"entries", json::array()}, {"skipped_lines", 0}});
  EXPECT_THAT(text, Not(HasSubstr("skipped")));
}

}  // namespace
}  // namespace nb::ctl
