#include "daemon/codec/report_json.hpp"
#include "daemon/codec/report_summary.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace nb::codec {
namespace {

actuator::ProcessReport process(int pid, Bytes on_source) {
  actuator::ProcessReport report;
  report.pid = pid;
  report.bytes_on_source = on_source;
  report.bytes_moved_to[0] = on_source / 2;
  return report;
}

actuator::MigrationReport two_containers() {
  actuator::MigrationReport report;
  report.source_node = 1;
  report.dest_nodes = {0};
  actuator::ContainerReport small;
  small.id = "pods/small";
  small.processes = {process(10, 4 * kMiB)};
  actuator::ContainerReport big;
  big.id = "pods/big";
  big.processes = {process(20, 1 * kMiB), process(21, 9 * kMiB), process(22, 5 * kMiB),
                   process(23, 7 * kMiB)};
  report.containers = {small, big};
  return report;
}

TEST(FullReport, KeepsEveryProcessWithinTheCap) {
  auto json = to_json(two_containers(), 4);
  ASSERT_EQ(json["containers"].size(), 2u);
  EXPECT_EQ(json["containers"][1]["processes"].size(), 4u);
  EXPECT_FALSE(json["containers"][1].contains("processes_omitted"));
  EXPECT_EQ(json["containers"][1]["processes"][0]["pid"], 20) << "order is the walk's";
  EXPECT_EQ(json["bytes_moved"], 13 * kMiB);
}

TEST(FullReport, KeepsTheProcessesWithMostOnTheSourceAndCountsTheRest) {
  auto json = to_json(two_containers(), 2);
  const auto& big = json["containers"][1];
  ASSERT_EQ(big["processes"].size(), 2u);
  EXPECT_EQ(big["processes"][0]["pid"], 21);
  EXPECT_EQ(big["processes"][1]["pid"], 23);
  EXPECT_EQ(big["processes_omitted"], 2);
  EXPECT_EQ(big["bytes_on_source"], 22 * kMiB) << "container totals still count every process";
  EXPECT_EQ(json["containers"][0]["processes"].size(), 1u);
  EXPECT_FALSE(json["containers"][0].contains("processes_omitted"));
}

TEST(FullReport, SummaryCountsWhatTheFullReportLists) {
  auto report = two_containers();
  auto summary = to_json(rounds::summarize(report));
  auto full = to_json(report, 100);
  EXPECT_EQ(summary["containers"], full["containers"].size());
  EXPECT_EQ(summary["bytes_moved"], full["bytes_moved"]);
  EXPECT_EQ(summary["bytes_moved_to"], full["bytes_moved_to"]);
}

// A report with every field set, so that a field the reader forgets shows as a difference.
actuator::MigrationReport busy_report() {
  actuator::MigrationReport report = two_containers();
  report.dest_nodes = {0, 2};
  report.move_shared = true;
  report.budget = 64 * kMiB;
  report.goal = 32 * kMiB;
  report.threshold = 0.8;
  report.threshold_met = true;
  report.stop_reason = actuator::StopReason::budget_met;
  report.vanished_pids = {22};
  report.dropped_destinations = {{.node = 2, .reason = "full"}};
  report.errors = {
      {.pid = 21, .container_id = "pods/big", .code = 16, .message = "busy", .hint = "retry"},
      {.pid = std::nullopt,
       .container_id = "pods/small",
       .code = 0,
       .message = "cgroup vanished",
       .hint = ""}};
  report.elapsed = std::chrono::milliseconds(1500);
  report.page_order = actuator::PageOrder::hot_first;
  report.page_order_fallback = "pid 20: no DAMON";
  report.hotness_cost = std::chrono::microseconds(2500);
  report.containers[1].cgroup_dir = "/sys/fs/cgroup/pods/big";
  report.containers[1].budget = 16 * kMiB;
  report.containers[1].elapsed = std::chrono::milliseconds(700);
  for (auto& container : report.containers) {
    for (auto& process : container.processes) {
      process.pages_scanned = process.pid * 10;
      process.bytes_already_on_destination = 4096;
      process.outcomes.moved = process.pid;
      process.outcomes.busy = 1;
      process.syscalls = 3;
      process.longest_call = std::chrono::microseconds(process.pid * 7);
      process.elapsed = std::chrono::milliseconds(process.pid);
      process.hot_first = process.pid % 2 == 1;
      process.bytes_moved_accessed = process.hot_first ? kMiB / 4 : 0;
      process.fast_path = process.pid == 10;
      process.vanished = process.pid == 22;
    }
  }
  return report;
}

TEST(FullReport, ReadsBackToTheSameDocument) {
  const auto written = to_json(busy_report(), 2);
  auto read = kept_report_from_json(written);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(to_json(*read), written);
}

TEST(FullReport, TotalsStillCountTheOmittedProcessesOnceReadBack) {
  const auto report = busy_report();
  auto read = kept_report_from_json(to_json(report, 1));
  ASSERT_TRUE(read.ok()) << read.error().message();
  const auto& big = read->containers[1];
  ASSERT_EQ(big.processes.size(), 1u);
  EXPECT_EQ(big.processes_omitted, 3u);
  EXPECT_EQ(big.totals.bytes_on_source, report.containers[1].bytes_on_source());
  EXPECT_EQ(big.totals.bytes_moved(), report.containers[1].bytes_moved());
  EXPECT_EQ(read->totals.bytes_moved(), report.bytes_moved());
  EXPECT_EQ(read->bytes_placed(), report.bytes_placed());
  EXPECT_EQ(read->totals.outcomes.moved, report.outcomes().moved);
  EXPECT_EQ(read->bytes_moved_not_accessed, report.bytes_moved_not_accessed());
  EXPECT_EQ(read->totals.longest_call, report.longest_call());
}

TEST(FullReport, AReportFromAnOlderVersionKeepsItsDefaultsForMissingKeys) {
  auto read = kept_report_from_json(nlohmann::json::parse(
      R"({"bytes_moved": 4194304, "containers": [{"id": "pods/a", "processes": [{"pid": 41}],
          "processes_omitted": 3}]})"));
  ASSERT_TRUE(read.ok()) << read.error().message();
  ASSERT_EQ(read->containers.size(), 1u);
  EXPECT_EQ(read->containers[0].processes[0].pid, 41);
  EXPECT_EQ(read->containers[0].processes_omitted, 3u);
  EXPECT_EQ(read->budget, actuator::kUnlimitedBudget) << "no budget key reads as unlimited";
}

TEST(FullReport, AMalformedFieldIsAnErrorNamingItsPath) {
  struct Case {
    const char* document;
    const char* message;
  };
  for (const Case& c : {
           Case{R"([])", "full_report: expected an object, got array"},
           Case{R"({"containers": [{"processes": [{"pid": "x"}]}]})",
                "full_report.containers[0].processes[0].pid: expected an integer"},
           Case{R"({"containers": [{"processes": [{}]}]})",
                "full_report.containers[0].processes[0]"},
           Case{R"({"bytes_moved_to": {"zero": 1}})", "full_report.bytes_moved_to.zero"},
           Case{R"({"elapsed_ms": -5})", "full_report.elapsed_ms: must be a duration"},
           Case{R"({"elapsed_ms": 1e10})", "full_report.elapsed_ms: must be a duration"},
           Case{R"({"vanished_pids": [4294967296]})", "full_report.vanished_pids[0]: must fit"},
           Case{R"({"stop_reason": "tired"})", "unknown stop reason \"tired\""},
           Case{R"({"page_order": "random"})", "unknown page order \"random\""},
           Case{R"({"errors": [{"pid": 1.5}]})", "full_report.errors[0].pid"},
       }) {
    auto read = kept_report_from_json(nlohmann::json::parse(c.document));
    ASSERT_FALSE(read.ok()) << c.document;
    EXPECT_THAT(read.error().message(), ::testing::HasSubstr(c.message)) << c.document;
  }
}

}  // namespace
}  // namespace nb::codec
