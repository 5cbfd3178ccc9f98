#include "daemon/service/export/metrics_export.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "tests/daemon/service/export/exposition_validator.hpp"

namespace nb::service {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

core::Snapshot two_node_snapshot() {
  core::Snapshot snapshot;
  snapshot.nodes.resize(2);
  snapshot.nodes[0].id = 0;
  snapshot.nodes[0].read_latency_ns = 95.5;
  snapshot.nodes[0].bandwidth_gbps = 12.5;
  snapshot.nodes[1].id = 1;
  snapshot.nodes[1].read_latency_ns = 60.0;
  snapshot.containers = {core::Container{"a", "share", {{0, 100}, {1, 50}}},
                         core::Container{"b", "share", {{0, 20}}}};
  return snapshot;
}

void expect_valid_exposition(const std::string& text) {
  EXPECT_THAT(nb::testing::exposition_problems(text), IsEmpty()) << text;
}

TEST(PrometheusExport, NodeGaugesCarryNodeAndProviderLabels) {
  auto snapshot = two_node_snapshot();
  core::Decision decision;
  decision.level = core::PressureLevel::force;
  DaemonCounters counters;
  MetricsView view{
      &snapshot, &decision, {{metrics::Metric::read_latency, "file", true, "", "file"}}, &counters};
  auto text = render_prometheus(view);
  expect_valid_exposition(text);
  EXPECT_THAT(text,
              HasSubstr("numabalancer_node_read_latency_seconds{node=\"0\",provider=\"file\"} "
                        "9.55e-08\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_node_bandwidth_bytes_per_second{node=\"0\","
                              "provider=\"\"} 12500000000\n"));
  EXPECT_EQ(text.find("numabalancer_node_bandwidth_bytes_per_second{node=\"1\""), std::string::npos)
      << "an unmeasured node has no sample, never a zero";
  EXPECT_NE(text.find("numabalancer_node_anon_bytes{node=\"0\"} 120\n"), std::string::npos);
  EXPECT_NE(text.find("numabalancer_node_anon_bytes{node=\"1\"} 50\n"), std::string::npos);
  EXPECT_NE(text.find("numabalancer_pressure_level 2\n"), std::string::npos);
  EXPECT_NE(text.find("numabalancer_provider_up{metric=\"read_latency\",provider=\"file\"} 1\n"),
            std::string::npos);
}

// An alert on numabalancer_provider_up{provider="file"} == 0 needs the series to keep its label
// when the provider is down and the scan names no provider.
TEST(PrometheusExport, ProviderUpIsOneSeriesPerConfiguredProviderLabelledWhenDown) {
  MetricsView down{nullptr,
                   nullptr,
                   {{metrics::Metric::read_latency, "", false, "file: no such file", "file"},
                    {metrics::Metric::bandwidth, "", false, "disabled by config", "none"}},
                   nullptr};
  auto text = render_prometheus(down);
  expect_valid_exposition(text);
  EXPECT_THAT(text,
              HasSubstr("numabalancer_provider_up{metric=\"read_latency\",provider=\"file\"} 0\n"));
  EXPECT_EQ(text.find("provider=\"\""), std::string::npos) << text;
  EXPECT_EQ(text.find("metric=\"bandwidth\""), std::string::npos)
      << "a metric configured \"none\" has no provider to be up or down";

  MetricsView up{
      nullptr, nullptr, {{metrics::Metric::read_latency, "file", true, "", "file"}}, nullptr};
  EXPECT_THAT(render_prometheus(up),
              HasSubstr("numabalancer_provider_up{metric=\"read_latency\",provider=\"file\"} 1\n"));
}

TEST(PrometheusExport, CountersAccumulateReports) {
  DaemonCounters counters;
  ++counters.rounds[rounds::RoundOutcome::none];
  ++counters.rounds[rounds::RoundOutcome::done];
  ++counters.evictions["freeze"];
  actuator::MigrationReport report;
  report.source_node = 1;
  report.elapsed = std::chrono::milliseconds(700);
  actuator::ContainerReport container;
  actuator::ProcessReport process;
  process.bytes_moved_to = {{0, 4096}, {2, 8192}};
  process.outcomes.busy = 3;
  process.syscalls = 2;
  process.longest_call = std::chrono::milliseconds(15);
  container.processes.push_back(process);
  report.containers.push_back(container);
  counters.add_report(report);
  counters.add_report(report);

  MetricsView view{nullptr, nullptr, {}, &counters};
  auto text = render_prometheus(view);
  expect_valid_exposition(text);
  EXPECT_NE(text.find("numabalancer_rounds_total{outcome=\"done\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("numabalancer_migrated_bytes_total{source=\"1\",dest=\"0\"} 8192\n"),
            std::string::npos);
  EXPECT_NE(text.find("numabalancer_migrated_bytes_total{source=\"1\",dest=\"2\"} 16384\n"),
            std::string::npos);
  EXPECT_NE(text.find("numabalancer_migration_pages_failed_total{reason=\"busy\"} 6\n"),
            std::string::npos);
  EXPECT_NE(text.find("numabalancer_evictions_total{action=\"freeze\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("numabalancer_job_duration_seconds_bucket{le=\"0.5\"} 0\n"),
            std::string::npos);
  EXPECT_NE(text.find("numabalancer_job_duration_seconds_bucket{le=\"1\"} 2\n"), std::string::npos);
  EXPECT_NE(text.find("numabalancer_job_duration_seconds_bucket{le=\"+Inf\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("numabalancer_job_duration_seconds_count 2\n"), std::string::npos);
  EXPECT_NE(text.find("numabalancer_move_call_duration_seconds_bucket{le=\"0.02\"} 2\n"),
            std::string::npos);
}

TEST(PrometheusExport, BytesMovedAreCountedByTheOrderTheirPagesWentIn) {
  DaemonCounters counters;
  actuator::MigrationReport report;
  actuator::ContainerReport container;
  actuator::ProcessReport hot;
  hot.hot_first = true;
  hot.bytes_moved_to = {{1, 3 * 4096}};
  actuator::ProcessReport walked;
  walked.bytes_moved_to = {{1, 4096}};
  container.processes = {hot, walked};
  report.containers.push_back(container);
  counters.add_report(report);
  counters.add_report(report);
  MetricsView view{nullptr, nullptr, {}, &counters};
  auto text = render_prometheus(view);
  expect_valid_exposition(text);
  EXPECT_THAT(text, HasSubstr("# TYPE numabalancer_migration_bytes_total counter\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_migration_bytes_total{order=\"hot_first\"} 24576\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_migration_bytes_total{order=\"address\"} 8192\n"));
  DaemonCounters fresh;
  MetricsView empty{nullptr, nullptr, {}, &fresh};
  EXPECT_THAT(render_prometheus(empty),
              HasSubstr("numabalancer_migration_bytes_total{order=\"hot_first\"} 0\n"))
      << "both orders start at zero";
}

TEST(PrometheusExport, LabelValuesAreEscaped) {
  DaemonCounters counters;
  counters.evictions["a\"b\\c\nd"] = 1;  // an action's name comes from a registry
  MetricsView view{nullptr, nullptr, {}, &counters};
  auto text = render_prometheus(view);
  expect_valid_exposition(text);
  EXPECT_NE(text.find(R"(action="a\"b\\c\nd")"), std::string::npos);
}

TEST(PrometheusExport, FullViewCarriesEveryFamilyOfTheIssue) {
  auto snapshot = two_node_snapshot();
  core::Decision decision;
  decision.level = core::PressureLevel::grace;
  DaemonCounters counters;
  ++counters.rounds[rounds::RoundOutcome::started];
  ++counters.evictions["kill"];
  actuator::MigrationReport report;
  report.source_node = 0;
  report.elapsed = std::chrono::seconds(2);
  counters.add_report(report);
  MetricsView view{&snapshot,
                   &decision,
                   {{metrics::Metric::read_latency, "probe", true, "", "auto"},
                    {metrics::Metric::bandwidth, "", false, "perf: no PMU", "perf"}},
                   &counters};
  auto text = render_prometheus(view);
  expect_valid_exposition(text);
  for (const char* family :
       {"numabalancer_node_read_latency_seconds gauge",
        "numabalancer_node_bandwidth_bytes_per_second gauge", "numabalancer_node_anon_bytes gauge",
        "numabalancer_pressure_level gauge", "numabalancer_rounds_total counter",
        "numabalancer_migrated_bytes_total counter",
        "numabalancer_migration_pages_failed_total counter", "numabalancer_evictions_total counter",
        "numabalancer_round_effects_total counter", "numabalancer_job_duration_seconds histogram",
        "numabalancer_move_call_duration_seconds histogram", "numabalancer_provider_up gauge"}) {
    EXPECT_THAT(text, HasSubstr(std::string("# TYPE ") + family + "\n"));
  }
  EXPECT_THAT(text,
              HasSubstr("numabalancer_provider_up{metric=\"read_latency\",provider=\"auto\"} 1\n"));
  EXPECT_THAT(text,
              HasSubstr("numabalancer_provider_up{metric=\"bandwidth\",provider=\"perf\"} 0\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_pressure_level 1\n"));
  EXPECT_THAT(text,
              HasSubstr("numabalancer_migration_pages_failed_total{reason=\"no_memory\"} 0\n"))
      << "known reasons start at zero";
  EXPECT_THAT(text, HasSubstr("numabalancer_round_effects_total{result=\"not_improved\"} 0\n"))
      << "every effect result starts at zero";
}

TEST(PrometheusExport, PolicyCalibrationBackoffAndJobsAreExported) {
  auto snapshot = two_node_snapshot();
  snapshot.time = TimePoint(std::chrono::seconds(1'780'000'000));
  snapshot.read_latency_kind = core::LatencyKind::load_to_use;  // auto means relative
  core::PolicyConfig policy;
  policy.strategy = core::Strategy::equalize;
  // Three rounds off node 0 that did not lower its latency: back-off holds it for 60 s.
  core::History history;
  for (int i = 0; i < 3; ++i) {
    history.push_back(core::Round{snapshot.time - std::chrono::seconds(10 + i),
                                  0,
                                  {1},
                                  true,
                                  false,
                                  core::RoundEffect{false, 200, 199, 100, 99}});
  }
  DaemonCounters counters;
  actuator::MigrationReport report;
  report.stop_reason = actuator::StopReason::deadline;
  counters.add_report(report);
  MetricsView view{&snapshot, nullptr, {}, &counters};
  view.policy = &policy;
  view.history = &history;
  view.baselines = {metrics::NodeBaseline{0, 90.0, metrics::BaselineSource::learned, 60, 0},
                    metrics::NodeBaseline{1, std::nullopt, std::nullopt, 10, 50}};
  const std::string text = render_prometheus(view);
  expect_valid_exposition(text);
  EXPECT_THAT(text, HasSubstr("numabalancer_policy_info{strategy=\"equalize\","
                              "threshold_mode=\"relative\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_node_baseline_samples_needed{node=\"0\"} 0\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_node_baseline_samples_needed{node=\"1\"} 50\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_backoff_active{node=\"0\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_backoff_active{node=\"1\"} 0\n"));
  // The newest of the three was 10 s ago; the wait is min_interval doubled once, 60 s.
  EXPECT_THAT(text, HasSubstr("numabalancer_backoff_until_timestamp_seconds{node=\"0\"} " +
                              std::to_string(1'780'000'000 - 10 + 60) + "\n"));
  EXPECT_THAT(text, Not(HasSubstr("numabalancer_backoff_until_timestamp_seconds{node=\"1\"}")));
  EXPECT_THAT(text, HasSubstr("numabalancer_jobs_total{stop_reason=\"deadline\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_jobs_total{stop_reason=\"completed\"} 0\n"));
  EXPECT_THAT(text, HasSubstr("# HELP numabalancer_rounds_total Rounds run, by outcome.\n"));
}

TEST(PrometheusExport, NonFiniteValuesUseThePrometheusSpelling) {
  core::Snapshot snapshot;
  snapshot.nodes.resize(2);
  snapshot.nodes[0].id = 0;
  snapshot.nodes[0].read_latency_ns = std::numeric_limits<double>::infinity();
  snapshot.nodes[1].id = 1;
  snapshot.nodes[1].read_latency_ns = std::numeric_limits<double>::quiet_NaN();
  MetricsView view{&snapshot, nullptr, {}, nullptr};
  auto text = render_prometheus(view);
  expect_valid_exposition(text);
  EXPECT_THAT(text, HasSubstr("{node=\"0\",provider=\"\"} +Inf\n"));
  EXPECT_THAT(text, HasSubstr("{node=\"1\",provider=\"\"} NaN\n"));
}

TEST(PrometheusExport, EmptyViewIsStillValid) {
  expect_valid_exposition(render_prometheus(MetricsView{}));
}

TEST(Histogram, CountsAreCumulativeAndOverflowOnlyInInf) {
  Histogram histogram({1, 2});
  for (double value : {0.5, 1.0, 1.5, 9.0}) {
    histogram.observe(value);
  }
  EXPECT_EQ(histogram.cumulative(), (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(histogram.count(), 4u);
  EXPECT_DOUBLE_EQ(histogram.sum(), 12.0);
}

TEST(PrometheusExport, BaselineGaugesNameTheirSourceAndCountReadings) {
  auto snapshot = two_node_snapshot();
  MetricsView view{&snapshot, nullptr, {}, nullptr};
  view.baselines = {
      {.node = 0,
       .read_latency_ns = 92.5,
       .source = metrics::BaselineSource::learned,
       .samples = 61,
       .samples_needed = 0},
      {.node = 1, .samples = 12, .samples_needed = 48},
      {.node = 2,
       .read_latency_ns = 141.5,
       .source = metrics::BaselineSource::configured,
       .samples = 0,
       .samples_needed = 0},
  };
  auto text = render_prometheus(view);
  expect_valid_exposition(text);
  EXPECT_THAT(text, HasSubstr("numabalancer_node_baseline_read_latency_seconds{node=\"0\","
                              "source=\"learned\"} 9.25e-08\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_node_baseline_read_latency_seconds{node=\"2\","
                              "source=\"configured\"} 1.415e-07\n"));
  EXPECT_EQ(text.find("numabalancer_node_baseline_read_latency_seconds{node=\"1\""),
            std::string::npos)
      << "a node still learning has no baseline sample, never a zero";
  EXPECT_THAT(text, HasSubstr("numabalancer_node_baseline_samples{node=\"0\"} 61\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_node_baseline_samples{node=\"1\"} 12\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_node_baseline_samples{node=\"2\"} 0\n"));
}

TEST(PrometheusExport, NoBaselinesNoBaselineFamilies) {
  auto snapshot = two_node_snapshot();
  MetricsView view{&snapshot, nullptr, {}, nullptr};
  EXPECT_EQ(render_prometheus(view).find("baseline"), std::string::npos);
}

}  // namespace
}  // namespace nb::service
