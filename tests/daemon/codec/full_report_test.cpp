#include "daemon/codec/report_json.hpp"
#include "daemon/codec/report_summary.hpp"

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
  auto summary = to_json(summarize(report));
  auto full = to_json(report, 100);
  EXPECT_EQ(summary["containers"], full["containers"].size());
  EXPECT_EQ(summary["bytes_moved"], full["bytes_moved"]);
  EXPECT_EQ(summary["bytes_moved_to"], full["bytes_moved_to"]);
}

}  // namespace
}  // namespace nb::codec
