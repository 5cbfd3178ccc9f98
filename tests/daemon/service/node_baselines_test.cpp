// The daemon's side of baselines, round by round with a fake clock: which readings count, what
// the policy's snapshot carries, the note a calibrating round gets, and what survives a restart.

#include "daemon/service/node_baselines.hpp"

#include <gtest/gtest.h>

namespace nb::service {
namespace {

using namespace std::chrono_literals;
using core::LatencyKind;

const TimePoint kStart = TimePoint(std::chrono::seconds(1'780'000'000));

config::BaselineConfig learn_after(int min_samples) {
  config::BaselineConfig settings;
  settings.min_samples = min_samples;
  return settings;
}

// A scan of nodes 0 and 1 at `time`: node latencies as given (nullopt: not measured), from
// `provider` of `kind`, or from nobody when `answered` is false.
host::HostScan scan_at(TimePoint time, std::optional<double> node0, std::optional<double> node1,
                       std::string provider = "probe", LatencyKind kind = LatencyKind::load_to_use,
                       bool answered = true) {
  host::HostScan scan;
  scan.snapshot.time = time;
  scan.snapshot.read_latency_kind = kind;
  scan.snapshot.nodes.resize(2);
  scan.snapshot.nodes[0].id = 0;
  scan.snapshot.nodes[0].read_latency_ns = node0;
  scan.snapshot.nodes[1].id = 1;
  scan.snapshot.nodes[1].read_latency_ns = node1;
  host::ProviderReport report;
  report.metric = metrics::Metric::read_latency;
  report.provider = answered ? provider : "";
  report.available = answered;
  report.kind = kind;
  scan.report.providers.push_back(report);
  return scan;
}

core::Decision calibrating() {
  core::Decision decision;
  decision.status = core::DecisionStatus::calibrating;
  decision.reason = "relative thresholds need a baseline for node 0, 1";
  return decision;
}

TEST(NodeBaselines, TheSnapshotCarriesLearnedAndConfiguredBaselines) {
  NodeBaselines baselines;
  auto settings = learn_after(2);
  settings.read_latency_ns = {{1, 141.5}};
  TimePoint now = kStart;
  for (double ns : {100.0, 120.0}) {
    auto scan = scan_at(now += 10s, ns, 300);
    baselines.observe(scan, settings);
    if (ns == 100.0) {
      EXPECT_FALSE(scan.snapshot.nodes[0].baseline_read_latency_ns.has_value());
      EXPECT_EQ(scan.snapshot.nodes[1].baseline_read_latency_ns, 141.5);
    } else {
      EXPECT_DOUBLE_EQ(*scan.snapshot.nodes[0].baseline_read_latency_ns, 101);
      EXPECT_EQ(scan.snapshot.nodes[1].baseline_read_latency_ns, 141.5);
    }
  }
}

TEST(NodeBaselines, OnlyAnsweredNodesAndAnsweringProvidersCount) {
  NodeBaselines baselines;
  TimePoint now = kStart;
  auto first = scan_at(now += 10s, 90, std::nullopt);
  baselines.observe(first, learn_after(60));
  auto unanswered = scan_at(now += 10s, 95, 95, "probe", LatencyKind::load_to_use, false);
  baselines.observe(unanswered, learn_after(60));
  EXPECT_EQ(baselines.tracker().baseline(0).samples, 1u);
  EXPECT_EQ(baselines.tracker().baseline(1).samples, 0u);
}

TEST(NodeBaselines, AnotherProviderOrKindStartsOver) {
  NodeBaselines baselines;
  TimePoint now = kStart;
  auto probe = scan_at(now += 10s, 90, 130);
  baselines.observe(probe, learn_after(1));
  ASSERT_TRUE(probe.snapshot.nodes[0].baseline_read_latency_ns.has_value());

  auto perf =
      scan_at(now += 10s, std::nullopt, std::nullopt, "perf", LatencyKind::memory_controller_queue);
  baselines.observe(perf, learn_after(1));
  EXPECT_FALSE(perf.snapshot.nodes[0].baseline_read_latency_ns.has_value());
  EXPECT_EQ(baselines.tracker().baseline(0).samples, 0u);
}

TEST(NodeBaselines, ACalibratingRoundSaysHowManyReadingsEachNodeStillNeeds) {
  NodeBaselines baselines;
  auto settings = learn_after(60);
  TimePoint now = kStart;
  for (int i = 0; i < 5; ++i) {
    auto scan = scan_at(now += 10s, 90, i < 4 ? std::optional<double>(130) : std::nullopt);
    baselines.observe(scan, settings);
  }
  auto scan = scan_at(now, 90, 130);
  EXPECT_EQ(baselines.learning_note(calibrating(), scan.snapshot),
            "; learning: node 0 needs 55 more readings, node 1 needs 56");

  core::Decision idle;
  idle.status = core::DecisionStatus::idle;
  EXPECT_EQ(baselines.learning_note(idle, scan.snapshot), "");

  // A node with a baseline is left out, and one reading is a reading.
  auto almost = learn_after(6);
  almost.read_latency_ns = {{1, 141.5}};
  auto next = scan_at(now += 10s, 90, 130);
  baselines.observe(next, almost);
  EXPECT_EQ(baselines.learning_note(calibrating(), next.snapshot), "");
  auto seven = learn_after(7);
  baselines.observe(next, seven);
  EXPECT_EQ(baselines.learning_note(calibrating(), next.snapshot),
            "; learning: node 1 needs 1 more reading");
}

TEST(NodeBaselines, ARestartKeepsTheLearnedBaseline) {
  NodeBaselines before;
  TimePoint now = kStart;
  for (double ns : {100.0, 110.0, 120.0}) {
    auto scan = scan_at(now += 10s, ns, 130);
    before.observe(scan, learn_after(3));
  }
  auto saved = before.saved();
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->provider, "probe");
  EXPECT_EQ(saved->kind, LatencyKind::load_to_use);
  EXPECT_EQ(saved->readings.at(0).size(), 3u);

  NodeBaselines after;
  after.restore(saved);
  auto scan = scan_at(now += 10s, std::nullopt, std::nullopt);
  after.observe(scan, learn_after(3));
  EXPECT_DOUBLE_EQ(*scan.snapshot.nodes[0].baseline_read_latency_ns, 101);
  EXPECT_DOUBLE_EQ(*scan.snapshot.nodes[1].baseline_read_latency_ns, 130);
}

TEST(NodeBaselines, ARestartUnderAnotherProviderDropsWhatWasSaved) {
  NodeBaselines before;
  auto scan = scan_at(kStart, 100, 130);
  before.observe(scan, learn_after(1));

  NodeBaselines after;
  after.restore(before.saved());
  auto other = scan_at(kStart + 10s, std::nullopt, std::nullopt, "file", LatencyKind::external);
  after.observe(other, learn_after(1));
  EXPECT_FALSE(other.snapshot.nodes[0].baseline_read_latency_ns.has_value());
  EXPECT_TRUE(after.tracker().readings().empty());
  EXPECT_EQ(after.saved()->provider, "file");
}

TEST(NodeBaselines, TheSnapshotCommandUsesSavedReadingsOnlyOfTheSameSource) {
  codec::SavedBaselines saved{"probe", LatencyKind::load_to_use, {{0, {{kStart, 90.0}}}}};
  auto settings = learn_after(1);
  settings.read_latency_ns = {{1, 141.5}};
  const metrics::LatencySource probe{"probe", LatencyKind::load_to_use};
  const metrics::LatencySource perf{"perf", LatencyKind::memory_controller_queue};

  auto same = tracker_from(saved, probe, settings, kStart + 1h);
  EXPECT_EQ(same.baseline(0).read_latency_ns, 90.0);
  EXPECT_EQ(same.baseline(1).read_latency_ns, 141.5);
  EXPECT_FALSE(tracker_from(saved, perf, settings, kStart + 1h).baseline(0).read_latency_ns);
  EXPECT_FALSE(tracker_from(saved, std::nullopt, settings, kStart).baseline(0).read_latency_ns);
  // A day and more later the saved readings are out of the window.
  EXPECT_FALSE(tracker_from(saved, probe, settings, kStart + 25h).baseline(0).read_latency_ns);
}

TEST(NodeBaselines, SavingIsDueEveryFiveMinutesOnceThereIsSomethingToSave) {
  NodeBaselines baselines;
  EXPECT_FALSE(baselines.save_due(kStart));
  auto scan = scan_at(kStart, 100, 130);
  baselines.observe(scan, learn_after(60));
  EXPECT_TRUE(baselines.save_due(kStart));
  baselines.mark_saved(kStart);
  EXPECT_FALSE(baselines.save_due(kStart + 4min + 59s));
  EXPECT_TRUE(baselines.save_due(kStart + 5min));
}

// What the journal appends every save: only the readings since the one before.
TEST(NodeBaselines, ASaveAfterTheFirstCarriesOnlyTheNewReadings) {
  NodeBaselines baselines;
  EXPECT_FALSE(baselines.added_since_save().has_value()) << "no source yet";
  auto first = scan_at(kStart, 100, 130);
  baselines.observe(first, learn_after(60));
  auto all = baselines.added_since_save();
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->readings.at(0).size(), 1u);
  baselines.mark_saved(kStart);
  auto second = scan_at(kStart + 10s, 101, 131);
  baselines.observe(second, learn_after(60));
  auto added = baselines.added_since_save();
  ASSERT_TRUE(added.has_value());
  ASSERT_EQ(added->readings.at(0).size(), 1u);
  EXPECT_EQ(added->readings.at(0).front().second, 101);
  EXPECT_EQ(baselines.saved()->readings.at(0).size(), 2u);
}

}  // namespace
}  // namespace nb::service
