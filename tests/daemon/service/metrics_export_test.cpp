#include "daemon/service/metrics_export.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

namespace nb::service {
namespace {

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

// The exposition format, strictly: HELP and TYPE once per family and before its samples,
// sample names belonging to the declared family, well-formed labels and numbers.
void expect_valid_exposition(const std::string& text) {
  static const std::regex help(R"(# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .+)");
  static const std::regex type(R"(# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram))");
  static const std::regex sample(
      R"(([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? )"
      R"((-?[0-9.eE+-]+|\+Inf|NaN))");
  std::istringstream in(text);
  std::string line;
  std::string family;
  std::string family_type;
  std::set<std::string> seen;
  while (std::getline(in, line)) {
    std::smatch match;
    if (std::regex_match(line, match, help)) {
      family = match[1];
      EXPECT_TRUE(seen.insert(family).second) << "family twice: " << family;
      family_type.clear();
      continue;
    }
    if (std::regex_match(line, match, type)) {
      EXPECT_EQ(match[1], family) << line;
      family_type = match[2];
      continue;
    }
    ASSERT_TRUE(std::regex_match(line, match, sample)) << "bad line: " << line;
    std::string name = match[1];
    if (family_type == "histogram") {
      EXPECT_TRUE(name == family + "_bucket" || name == family + "_sum" ||
                  name == family + "_count")
          << line;
    } else {
      EXPECT_EQ(name, family) << line;
    }
  }
}

TEST(PrometheusExport, NodeGaugesCarryNodeAndProviderLabels) {
  auto snapshot = two_node_snapshot();
  core::Decision decision;
  decision.level = core::PressureLevel::force;
  DaemonCounters counters;
  MetricsView view{&snapshot, &decision, {{"read_latency", "file", true, ""}}, &counters};
  auto text = render_prometheus(view);
  expect_valid_exposition(text);
  EXPECT_NE(text.find("numabalancer_node_read_latency_ns{node=\"0\",provider=\"file\"} 95.5\n"),
            std::string::npos);
  EXPECT_NE(text.find("numabalancer_node_bandwidth_gbps{node=\"0\",provider=\"\"} 12.5\n"),
            std::string::npos);
  EXPECT_EQ(text.find("numabalancer_node_bandwidth_gbps{node=\"1\""), std::string::npos)
      << "an unmeasured node has no sample, never a zero";
  EXPECT_NE(text.find("numabalancer_node_anon_bytes{node=\"0\"} 120\n"), std::string::npos);
  EXPECT_NE(text.find("numabalancer_node_anon_bytes{node=\"1\"} 50\n"), std::string::npos);
  EXPECT_NE(text.find("numabalancer_pressure_level 2\n"), std::string::npos);
  EXPECT_NE(text.find("numabalancer_provider_up{metric=\"read_latency\",provider=\"file\"} 1\n"),
            std::string::npos);
}

TEST(PrometheusExport, CountersAccumulateReports) {
  DaemonCounters counters;
  ++counters.rounds["none"];
  ++counters.rounds["done"];
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
  EXPECT_NE(text.find("numabalancer_rounds_total{status=\"done\"} 1\n"), std::string::npos);
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

TEST(PrometheusExport, LabelValuesAreEscaped) {
  DaemonCounters counters;
  counters.rounds["a\"b\\c\nd"] = 1;
  MetricsView view{nullptr, nullptr, {}, &counters};
  auto text = render_prometheus(view);
  expect_valid_exposition(text);
  EXPECT_NE(text.find(R"(status="a\"b\\c\nd")"), std::string::npos);
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

}  // namespace
}  // namespace nb::service
