#include "daemon/codec/report_summary.hpp"

#include <gtest/gtest.h>

#include "daemon/codec/report_json.hpp"

namespace nb::codec {
namespace {

using nlohmann::json;

actuator::MigrationReport sample_report() {
  actuator::ProcessReport process;
  process.pid = 41;
  process.bytes_on_source = 4 * kMiB;
  process.bytes_moved_to = {{0, 3 * kMiB}};
  process.outcomes.moved = 768;
  process.outcomes.busy = 2;
  process.syscalls = 3;
  process.longest_call = std::chrono::microseconds(1500);
  actuator::ContainerReport container;
  container.id = "pods/a";
  container.processes = {process};
  actuator::MigrationReport report;
  report.source_node = 1;
  report.dest_nodes = {0};
  report.budget = 8 * kMiB;
  report.goal = 4 * kMiB;
  report.threshold = 0.7;
  report.threshold_met = true;
  report.stop_reason = actuator::StopReason::budget_met;
  report.containers = {container};
  report.vanished_pids = {7, 8};
  actuator::ReportError error;
  error.container_id = "pods/a";
  error.code = 13;
  error.message = "denied";
  error.pid = 41;
  report.errors = {error};
  report.elapsed = std::chrono::milliseconds(250);
  return report;
}

TEST(ReportSummary, CountsWhatTheFullReportLists) {
  const auto report = sample_report();
  const json summary = to_json(rounds::summarize(report));
  const json full = to_json(report);
  EXPECT_EQ(summary["containers"], full["containers"].size());
  EXPECT_EQ(summary["vanished_pids"], 2);
  EXPECT_EQ(summary["bytes_moved"], full["bytes_moved"]);
  EXPECT_EQ(summary["bytes_moved_to"], full["bytes_moved_to"]);
  EXPECT_EQ(summary["outcomes"], full["outcomes"]);
  EXPECT_EQ(summary["stop_reason"], "budget_met");
  EXPECT_EQ(summary["errors"][0], error_in_summary(report.errors[0]));
  EXPECT_DOUBLE_EQ(summary["longest_call_ms"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(summary["elapsed_ms"].get<double>(), 250.0);
}

TEST(ReportSummary, ReadsBackToTheSameText) {
  const json written = to_json(rounds::summarize(sample_report()));
  auto read = summary_from_json(json::parse(written.dump()));
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(to_json(*read).dump(), written.dump());
}

TEST(ReportSummary, AMissingKeyKeepsItsDefault) {
  auto read = summary_from_json(json{{"bytes_moved", 4096}});
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(read->bytes_moved, 4096);
  EXPECT_EQ(read->stop_reason, actuator::StopReason::completed);
  EXPECT_TRUE(read->errors.empty());
}

TEST(ReportSummary, AnUnknownStopReasonIsAnError) {
  EXPECT_FALSE(summary_from_json(json{{"stop_reason", "bored"}}).ok());
  EXPECT_FALSE(summary_from_json(json::array()).ok());
}

TEST(ReportSummary, ADryRunClaimsNoThresholdAndReadsBack) {
  auto report = sample_report();
  report.dry_run = true;
  const json written = to_json(rounds::summarize(report));
  EXPECT_TRUE(written["threshold_met"].is_null());
  auto read = summary_from_json(json::parse(written.dump()));
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(to_json(*read).dump(), written.dump());
}

}  // namespace
}  // namespace nb::codec
