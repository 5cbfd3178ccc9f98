// A provider that goes down is said once, with its reason, and once more when it comes back;
// not once a round, although the reason's numbers (a file's age) change every round.

#include "daemon/service/provider_log.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/service/host_seams.hpp"
#include "tests/daemon/host/host_fixture.hpp"
#include "tests/support/captured_log.hpp"

namespace nb::service {
namespace {

using nb::testing::CapturedLog;
using ::testing::HasSubstr;
using ::testing::SizeIs;

host::ProviderReport provider_report(metrics::Metric metric, std::optional<std::string> down) {
  host::ProviderReport report;
  report.metric = metric;
  report.available = !down;
  report.provider = down ? "" : "file";
  report.reason = down.value_or("");
  return report;
}

host::ScanReport report(std::optional<std::string> latency_down,
                        std::optional<std::string> bandwidth_down = std::nullopt) {
  host::ScanReport scan;
  scan.providers = {provider_report(metrics::Metric::read_latency, std::move(latency_down)),
                    provider_report(metrics::Metric::bandwidth, std::move(bandwidth_down))};
  return scan;
}

config::MetricsConfig both_from_file() {
  config::MetricsConfig metrics;
  metrics.latency = "file";
  metrics.bandwidth = "file";
  return metrics;
}

TEST(ProviderLog, FailingRoundsLogOneLineAndRecoveryOneMore) {
  CapturedLog log;
  ProviderLog providers;
  providers.after_scan(report(std::nullopt), both_from_file());
  EXPECT_THAT(log.lines(), SizeIs(0)) << "a provider that works says nothing";

  for (int round = 0; round < 5; ++round) {
    providers.after_scan(
        report("file: /run/nb.prom: stale: last written " + std::to_string(31 + round) + ".0s ago"),
        both_from_file());
  }
  auto lines = log.lines();
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], HasSubstr("read_latency provider failed: file: /run/nb.prom: stale: "
                                  "last written 31.0s ago"));
  EXPECT_THAT(lines[0], HasSubstr("[error]"));

  for (int round = 0; round < 3; ++round) {
    providers.after_scan(report(std::nullopt), both_from_file());
  }
  lines = log.lines();
  ASSERT_THAT(lines, SizeIs(2));
  EXPECT_THAT(lines[1], HasSubstr("read_latency provider works again"));
}

TEST(ProviderLog, EachMetricIsLoggedOnItsOwnAndNoneSaysNothing) {
  CapturedLog log;
  ProviderLog providers;
  auto metrics = both_from_file();
  metrics.latency = "none";
  for (int round = 0; round < 3; ++round) {
    providers.after_scan(report("disabled by config", "resctrl: not mounted"), metrics);
  }
  auto lines = log.lines();
  ASSERT_THAT(lines, SizeIs(1));
  EXPECT_THAT(lines[0], HasSubstr("bandwidth provider failed: resctrl: not mounted"));
}

const TimePoint kNow = TimePoint(std::chrono::seconds(1'800'000'000));

// Through the daemon's scan seam, with the file provider reading a file that goes stale.
TEST(ProviderLog, TheDaemonsScanLogsAStaleFileOnceAndItsRecoveryOnce) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
  config::Config config;
  config.metrics.latency = "file";
  config.metrics.bandwidth = "none";
  config.metrics.file.path =
      tree.make_file("run/metrics.json",
                     R"({"time": 1800000000, "nodes": [{"id": 0, "read_latency_ns": 95}]})")
          .string();
  CapturedLog log;
  auto seams = host_seams(config, tree.root());
  ASSERT_TRUE(seams.ok()) << seams.error().message();

  ASSERT_TRUE(seams->scan(kNow).ok());
  for (int round = 1; round <= 4; ++round) {
    ASSERT_TRUE(seams->scan(kNow + std::chrono::minutes(round)).ok());
  }
  EXPECT_EQ(log.count("read_latency provider failed: file: "), 1u);
  EXPECT_EQ(log.count("stale: data from"), 1u);

  ASSERT_TRUE(seams->scan(kNow).ok());
  ASSERT_TRUE(seams->scan(kNow).ok());
  EXPECT_EQ(log.count("read_latency provider works again"), 1u);
  EXPECT_EQ(log.count("bandwidth provider"), 0u) << "bandwidth is off by config";
}

}  // namespace
}  // namespace nb::service
