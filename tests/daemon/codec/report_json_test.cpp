#include "daemon/codec/report_json.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace nb::codec {
namespace {

using nlohmann::json;

actuator::MigrationReport sample_report() {
  actuator::ProcessReport first;
  first.pid = 41;
  first.pages_scanned = 300;
  first.bytes_on_source = 300 * 4096;
  first.bytes_moved_to = {{1, 200 * 4096}, {2, 50 * 4096}};
  first.outcomes.moved = 250;
  first.outcomes.busy = 3;
  first.outcomes.access_denied = 47;
  first.syscalls = 6;
  first.longest_call = std::chrono::microseconds(1500);
  first.elapsed = std::chrono::milliseconds(500);

  actuator::ProcessReport second;
  second.pid = 42;
  second.fast_path = true;
  second.bytes_on_source = 2 * kMiB;
  second.bytes_moved_to = {{1, 2 * kMiB}};
  second.outcomes.moved = 512;
  second.syscalls = 1;
  second.longest_call = std::chrono::milliseconds(4);

  actuator::ContainerReport container;
  container.id = "kubepods/pod-a";
  container.cgroup_dir = "/sys/fs/cgroup/kubepods/pod-a";
  container.budget = 8 * kMiB;
  container.processes = {first, second};
  container.elapsed = std::chrono::seconds(1);

  actuator::MigrationReport report;
  report.source_node = 0;
  report.dest_nodes = {1, 2};
  report.budget = 16 * kMiB;
  report.goal = 3 * kMiB + 300 * 4096;
  report.threshold = 0.7;
  report.threshold_met = true;
  report.stop_reason = actuator::StopReason::completed;
  report.containers = {container};
  report.vanished_pids = {43};
  report.dropped_destinations = {{2, "move_pages answered ENOMEM"}};
  actuator::ReportError error;
  error.code = EPERM;
  error.container_id = "kubepods/pod-a";
  error.message = "move_pages 44: Operation not permitted";
  error.hint = actuator::hint_for(EPERM);
  report.errors = {error};
  report.elapsed = std::chrono::seconds(2);
  return report;
}

TEST(ReportJson, CarriesTotalsPerDestinationAndOutcomes) {
  json document = to_json(sample_report());
  EXPECT_EQ(document["source_node"], 0);
  EXPECT_EQ(document["dest_nodes"], json({1, 2}));
  EXPECT_EQ(document["budget"], 16 * kMiB);
  EXPECT_EQ(document["stop_reason"], "completed");
  EXPECT_EQ(document["threshold_met"], true);
  EXPECT_EQ(document["bytes_moved"], 250 * 4096 + 2 * kMiB);
  EXPECT_EQ(document["bytes_moved_to"]["1"], 200 * 4096 + 2 * kMiB);
  EXPECT_EQ(document["bytes_moved_to"]["2"], 50 * 4096);
  EXPECT_EQ(document["outcomes"]["moved"], 762);
  EXPECT_EQ(document["outcomes"]["busy"], 3);
  EXPECT_EQ(document["outcomes"]["access_denied"], 47);
  EXPECT_EQ(document["syscalls"], 7);
  EXPECT_DOUBLE_EQ(document["longest_call_ms"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(document["elapsed_ms"].get<double>(), 2000.0);
  EXPECT_NEAR(document["rate_mib_per_s"].get<double>(), (250.0 * 4096 / kMiB + 2) / 2, 1e-9);
  EXPECT_EQ(document["vanished_pids"], json({43}));
  EXPECT_EQ(document["dropped_destinations"][0]["node"], 2);
}

TEST(ReportJson, NestsContainersAndProcesses) {
  json document = to_json(sample_report());
  const json& container = document["containers"][0];
  EXPECT_EQ(container["id"], "kubepods/pod-a");
  EXPECT_EQ(container["cgroup"], "/sys/fs/cgroup/kubepods/pod-a");
  EXPECT_EQ(container["budget"], 8 * kMiB);
  ASSERT_EQ(container["processes"].size(), 2u);
  EXPECT_EQ(container["processes"][0]["pid"], 41);
  EXPECT_EQ(container["processes"][0]["fast_path"], false);
  EXPECT_DOUBLE_EQ(container["processes"][0]["longest_call_ms"].get<double>(), 1.5);
  EXPECT_EQ(container["processes"][1]["fast_path"], true);
  EXPECT_EQ(container["processes"][1]["bytes_moved_to"]["1"], 2 * kMiB);
}

TEST(ReportJson, ErrorsCarryErrnoAndHint) {
  json document = to_json(sample_report());
  const json& error = document["errors"][0];
  EXPECT_TRUE(error["pid"].is_null());
  EXPECT_EQ(error["errno"], EPERM);
  EXPECT_NE(error["hint"].get<std::string>().find("CAP_SYS_NICE"), std::string::npos);
}

TEST(ReportJson, UnlimitedBudgetAndSinglePidAreNull) {
  auto report = sample_report();
  report.budget = actuator::kUnlimitedBudget;
  report.containers[0].cgroup_dir.clear();
  report.containers[0].budget.reset();
  json document = to_json(report);
  EXPECT_TRUE(document["budget"].is_null());
  EXPECT_TRUE(document["containers"][0]["cgroup"].is_null());
  EXPECT_TRUE(document["containers"][0]["budget"].is_null());
}

TEST(ReportJson, ProgressHasMovedPlacedAndGoal) {
  actuator::JobProgress progress;
  progress.moved = kMiB;
  progress.placed = 2 * kMiB;
  progress.goal = 4 * kMiB;
  progress.rate_mib_per_s = 100;
  progress.pid = 7;
  json document = to_json(progress);
  EXPECT_EQ(document["moved"], kMiB);
  EXPECT_EQ(document["placed"], 2 * kMiB);
  EXPECT_EQ(document["goal"], 4 * kMiB);
  EXPECT_EQ(document["pid"], 7);
}

TEST(ReportJson, ProgressNamesItsContainerAsJobEventsDo) {
  actuator::JobProgress progress;
  progress.container_id = "pods/a";
  json document = to_json(progress);
  EXPECT_EQ(document["container"], "pods/a");
  EXPECT_FALSE(document.contains("container_id"));
}

TEST(ReportJson, TheTwoErrorShapesOfOneError) {
  actuator::ReportError error;
  error.container_id = "pods/a";
  error.code = EPERM;
  error.message = "denied";
  EXPECT_EQ(error_in_full_report(error), (json{{"pid", nullptr},
                                               {"container_id", "pods/a"},
                                               {"errno", EPERM},
                                               {"message", "denied"},
                                               {"hint", ""}}));
  EXPECT_EQ(error_in_summary(error),
            (json{{"container", "pods/a"}, {"code", EPERM}, {"message", "denied"}}));
  error.pid = 9;
  error.hint = "try";
  EXPECT_EQ(error_in_summary(error)["pid"], 9);
  EXPECT_EQ(error_in_summary(error)["hint"], "try");
}

TEST(ReportJson, WithoutALimitNoContainerSaysProcessesWereOmitted) {
  json document = to_json(sample_report(), 2);
  EXPECT_EQ(document, to_json(sample_report()));
  EXPECT_FALSE(document["containers"][0].contains("processes_omitted"));
}

TEST(ReportJson, OverTheLimitKeepsTheProcessesWithMostOnTheSource) {
  json document = to_json(sample_report(), 1);
  const json& container = document["containers"][0];
  ASSERT_EQ(container["processes"].size(), 1u);
  EXPECT_EQ(container["processes"][0]["pid"], 42) << "2 MiB on the source beats 300 pages";
  EXPECT_EQ(container["processes_omitted"], 1);
  EXPECT_EQ(container["bytes_on_source"], 2 * kMiB + 300 * 4096) << "totals count every process";
}

// A dry run moves nothing: it says what a real run would move and claims no threshold, though
// the engine computed one from what it found.
TEST(ReportJson, ADryRunClaimsNoThresholdAndSaysWhatWouldMove) {
  auto report = sample_report();
  report.dry_run = true;
  report.threshold_met = true;
  for (auto& process : report.containers[0].processes) {
    process.bytes_moved_to.clear();
    process.outcomes = {};
  }
  json document = to_json(report);
  EXPECT_TRUE(document["threshold_met"].is_null()) << document["threshold_met"];
  EXPECT_EQ(document["would_move_bytes"], std::min(report.bytes_on_source(), report.goal));
  EXPECT_EQ(document["bytes_moved"], 0);
  EXPECT_FALSE(to_json(sample_report()).contains("would_move_bytes"));
}

}  // namespace
}  // namespace nb::codec
