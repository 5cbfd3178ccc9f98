#include "daemon/codec/explain.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/codec/scan_report_json.hpp"

namespace nb::codec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(Explain, ReadyDecisionReadsAsVerdictReasoningAndPlan) {
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.level = core::PressureLevel::force;
  decision.bandwidth_level = core::BandwidthLevel::high;
  decision.source_node = 0;
  decision.dest_nodes = {1, 3};
  decision.migrate = {{"a.scope", 3 * kGiB / 2, {1, 3}}, {"b.scope", 512 * kMiB, {3}}};
  decision.evict = {{"c.scope", 16 * kGiB}};
  decision.total_bytes = 2 * kGiB;
  decision.explanation = {"pressure: force, node 0 read latency 142.5 ns > 80"};
  EXPECT_EQ(format_explanation(decision),
            "Decision: ready, force pressure, bandwidth high\n"
            "Why:\n"
            "  pressure: force, node 0 read latency 142.5 ns > 80\n"
            "Plan: 2 GiB from node 0 to nodes 1, 3 (actuator threshold 0.7)\n"
            "  1. migrate a.scope, 1.5 GiB to nodes 1, 3\n"
            "  2. migrate b.scope, 512 MiB to node 3\n"
            "  evict c.scope, 16 GiB on node 0\n");
}

TEST(Explain, EvictOnlyPlanListsTheEviction) {
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.source_node = 2;
  decision.evict = {{"c.scope", 2 * kGiB}};
  EXPECT_THAT(format_explanation(decision), HasSubstr("Plan:\n  evict c.scope, 2 GiB on node 2\n"));
}

TEST(Explain, IdleDecisionHasNoPlan) {
  core::Decision decision;
  decision.status = core::DecisionStatus::idle;
  decision.reason = "no latency pressure";
  const std::string text = format_explanation(decision);
  EXPECT_THAT(text, HasSubstr("Decision: idle - no latency pressure\n"));
  EXPECT_THAT(text, Not(HasSubstr("Plan:")));
}

host::ProviderReport provider_report(metrics::Metric metric, std::string provider,
                                     std::string reason) {
  host::ProviderReport report;
  report.metric = metric;
  report.available = !provider.empty();
  report.provider = std::move(provider);
  report.reason = std::move(reason);
  return report;
}

// What the daemon and `plan` put before core's lines: "no node has a read latency" alone does not
// say that the exporter's file is a day old.
TEST(Explain, UnavailableMetricsOpenTheReasoningWithTheirProvidersReasons) {
  core::Decision decision;
  decision.status = core::DecisionStatus::no_metrics;
  decision.reason = "no node has a read latency";
  decision.explanation = {"result: no_metrics, no node has a read latency"};
  const std::vector<host::ProviderReport> providers = {
      provider_report(metrics::Metric::read_latency, "",
                      "file: /run/nb.prom: stale sample m{node=\"1\"}: its timestamp is 86400.0s "
                      "old (max_age 30.0s)"),
      provider_report(metrics::Metric::bandwidth, "perf", "resctrl: not mounted"),
  };

  explain_unavailable_metrics(decision, providers);
  EXPECT_EQ(format_explanation(decision),
            "Decision: no_metrics - no node has a read latency\n"
            "Why:\n"
            "  read_latency unavailable: file: /run/nb.prom: stale sample m{node=\"1\"}: its "
            "timestamp is 86400.0s old (max_age 30.0s)\n"
            "  result: no_metrics, no node has a read latency\n");
}

TEST(Explain, ProviderReportsComeBackFromTheSnapshotMeta) {
  host::ScanReport report;
  report.providers = {
      provider_report(metrics::Metric::read_latency, "", "perf: no uncore PMU; probe: off"),
      provider_report(metrics::Metric::bandwidth, "resctrl", "perf: no uncore PMU"),
  };

  const auto reports = provider_reports(to_json(report));
  ASSERT_EQ(reports.size(), 2U);
  EXPECT_EQ(reports[0].metric, metrics::Metric::read_latency);
  EXPECT_FALSE(reports[0].available);
  EXPECT_EQ(reports[0].reason, "perf: no uncore PMU; probe: off");
  EXPECT_EQ(reports[1].metric, metrics::Metric::bandwidth);
  EXPECT_TRUE(reports[1].available);
  EXPECT_EQ(reports[1].provider, "resctrl");
  EXPECT_EQ(reports[1].reason, "perf: no uncore PMU");
}

TEST(Explain, MetaOfAnotherShapeGivesNoProviderReports) {
  for (const char* meta : {R"({})", R"({"metrics": 3})", R"({"metrics": {"read_latency": "off"}})",
                           R"({"host": "vm-3", "latency_provider": "none"})", R"([1])"}) {
    EXPECT_TRUE(provider_reports(nlohmann::json::parse(meta)).empty()) << meta;
  }
  const auto odd = provider_reports(
      nlohmann::json::parse(R"({"metrics": {"bandwidth": {"available": "no", "provider": 1}}})"));
  ASSERT_EQ(odd.size(), 1U);
  EXPECT_FALSE(odd[0].available);
  EXPECT_TRUE(odd[0].provider.empty());
}

}  // namespace
}  // namespace nb::codec
