#include "daemon/metrics/baseline_tracker.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace nb::metrics {
namespace {

using namespace std::chrono_literals;
using core::LatencyKind;

// Time only moves when a test says so: every reading is stamped by it.
struct FakeClock {
  TimePoint now = TimePoint{} + 1000h;
  TimePoint advance(Duration span) { return now += span; }
};

config::BaselineConfig settings(int min_samples, Duration window = 24h, double quantile = 0.05) {
  config::BaselineConfig config;
  config.min_samples = min_samples;
  config.window = window;
  config.quantile = quantile;
  return config;
}

const LatencySource kProbe{"probe", LatencyKind::load_to_use};

struct QuantileCase {
  const char* name;
  std::vector<double> values;
  double quantile;
  double expected;
};

TEST(BaselineTracker, QuantileInterpolatesBetweenTheSortedValues) {
  const QuantileCase cases[] = {
      {"one value is every quantile", {120}, 0.05, 120},
      {"two values, 5% of the way", {100, 200}, 0.05, 105},
      {"two values, the middle", {200, 100}, 0.5, 150},
      {"exactly on a value", {10, 20, 30, 40, 50}, 0.25, 20},
      {"between the first two", {10, 20, 30, 40, 50}, 0.1, 14},
      {"unsorted input", {50, 10, 40, 20, 30}, 0.1, 14},
      {"near the top", {10, 20, 30, 40, 50}, 0.99, 49.6},
      {"q = 0 is the minimum", {7, 3, 9}, 0, 3},
      {"q = 1 is the maximum", {7, 3, 9}, 1, 9},
      {"equal values", {80, 80, 80, 80}, 0.05, 80},
      {"the default 5% of 21 readings is the second",
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21},
       0.05,
       2},
  };
  for (const QuantileCase& c : cases) {
    auto value = interpolated_quantile(c.values, c.quantile);
    ASSERT_TRUE(value.has_value()) << c.name;
    EXPECT_NEAR(*value, c.expected, 1e-9) << c.name;
  }
  EXPECT_FALSE(interpolated_quantile({}, 0.05).has_value());
}

TEST(BaselineTracker, ANodeLearnsOnlyOnceItHasMinSamples) {
  FakeClock clock;
  BaselineTracker tracker(settings(3));
  tracker.use_source(kProbe);
  tracker.record(0, clock.now, 100);
  tracker.record(0, clock.advance(10s), 110);
  NodeBaseline early = tracker.baseline(0);
  EXPECT_FALSE(early.read_latency_ns.has_value());
  EXPECT_FALSE(early.source.has_value());
  EXPECT_EQ(early.samples, 2u);
  EXPECT_EQ(early.samples_needed, 1u);

  tracker.record(0, clock.advance(10s), 120);
  NodeBaseline learned = tracker.baseline(0);
  ASSERT_TRUE(learned.read_latency_ns.has_value());
  EXPECT_DOUBLE_EQ(*learned.read_latency_ns, 101);  // 5% of the way from 100 to 120 over 2 steps
  EXPECT_EQ(learned.source, BaselineSource::learned);
  EXPECT_EQ(learned.samples, 3u);
  EXPECT_EQ(learned.samples_needed, 0u);
}

TEST(BaselineTracker, ANodeWithNoReadingsNeedsThemAll) {
  BaselineTracker tracker(settings(60));
  NodeBaseline none = tracker.baseline(3);
  EXPECT_EQ(none.node, 3);
  EXPECT_FALSE(none.read_latency_ns.has_value());
  EXPECT_EQ(none.samples, 0u);
  EXPECT_EQ(none.samples_needed, 60u);
  auto listed = tracker.baselines({3});
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0], none);
}

TEST(BaselineTracker, ReadingsOlderThanTheWindowAreDropped) {
  FakeClock clock;
  BaselineTracker tracker(settings(1, 1h, 0));
  tracker.use_source(kProbe);
  tracker.record(0, clock.now, 50);  // the low one, soon out of the window
  tracker.record(0, clock.advance(30min), 90);
  EXPECT_DOUBLE_EQ(*tracker.baseline(0).read_latency_ns, 50);
  // Exactly one window after the first reading it is still in.
  tracker.record(0, clock.advance(30min), 95);
  EXPECT_EQ(tracker.baseline(0).samples, 3u);
  tracker.record(0, clock.advance(1ms), 96);
  EXPECT_EQ(tracker.baseline(0).samples, 3u);
  EXPECT_DOUBLE_EQ(*tracker.baseline(0).read_latency_ns, 90);
}

TEST(BaselineTracker, PruneDropsANodeThatStoppedAnswering) {
  FakeClock clock;
  BaselineTracker tracker(settings(1, 1h));
  tracker.use_source(kProbe);
  tracker.record(1, clock.now, 130);
  tracker.record(0, clock.advance(2h), 90);
  EXPECT_EQ(tracker.baseline(1).samples, 1u);  // recording node 0 does not prune node 1
  tracker.prune(clock.now);
  EXPECT_EQ(tracker.baseline(1).samples, 0u);
  EXPECT_EQ(tracker.readings().count(1), 0u);
  EXPECT_EQ(tracker.baseline(0).samples, 1u);
}

TEST(BaselineTracker, TheCapKeepsTheNewestReadings) {
  FakeClock clock;
  BaselineTracker tracker(settings(1, 24h, 0), /*max_readings_per_node=*/3);
  tracker.use_source(kProbe);
  for (double ns : {10.0, 20.0, 30.0, 40.0, 50.0}) {
    tracker.record(0, clock.advance(10s), ns);
  }
  const auto& kept = tracker.readings().at(0);
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_DOUBLE_EQ(kept.front().ns, 30);
  EXPECT_DOUBLE_EQ(*tracker.baseline(0).read_latency_ns, 30);
}

TEST(BaselineTracker, TheDefaultCapHoldsADayOfReadingsEveryTenSeconds) {
  EXPECT_EQ(kMaxReadingsPerNode, std::size_t{24 * 60 * 60 / 10});
}

TEST(BaselineTracker, ANewKindDropsEverythingLearned) {
  FakeClock clock;
  BaselineTracker tracker(settings(1));
  EXPECT_FALSE(tracker.use_source(kProbe));  // the first source replaces nothing
  tracker.record(0, clock.now, 90);
  EXPECT_FALSE(tracker.use_source(kProbe));
  EXPECT_EQ(tracker.baseline(0).samples, 1u);

  EXPECT_TRUE(tracker.use_source({"probe", LatencyKind::cache_miss}));
  EXPECT_EQ(tracker.baseline(0).samples, 0u);
  EXPECT_FALSE(tracker.baseline(0).read_latency_ns.has_value());
}

TEST(BaselineTracker, ANewProviderDropsEverythingLearned) {
  FakeClock clock;
  BaselineTracker tracker(settings(1));
  tracker.use_source({"file", LatencyKind::external});
  tracker.record(0, clock.now, 90);
  EXPECT_TRUE(tracker.use_source({"probe", LatencyKind::external}));
  EXPECT_TRUE(tracker.readings().empty());
  ASSERT_TRUE(tracker.source().has_value());
  EXPECT_EQ(tracker.source()->provider, "probe");
}

TEST(BaselineTracker, AConfiguredValueWinsOverALearnedOne) {
  FakeClock clock;
  auto config = settings(1);
  config.read_latency_ns = {{1, 141.5}};
  BaselineTracker tracker(config);
  tracker.use_source(kProbe);
  tracker.record(0, clock.now, 90);
  tracker.record(1, clock.now, 300);
  NodeBaseline configured = tracker.baseline(1);
  EXPECT_DOUBLE_EQ(*configured.read_latency_ns, 141.5);
  EXPECT_EQ(configured.source, BaselineSource::configured);
  EXPECT_EQ(configured.samples, 1u);  // still counted: shown beside the configured value
  EXPECT_EQ(configured.samples_needed, 0u);
  EXPECT_EQ(tracker.baseline(0).source, BaselineSource::learned);

  // A configured node needs no readings at all, and a source change does not drop it.
  tracker.use_source({"perf", LatencyKind::memory_controller_queue});
  EXPECT_DOUBLE_EQ(*tracker.baseline(1).read_latency_ns, 141.5);
  auto listed = tracker.baselines();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].node, 1);
}

TEST(BaselineTracker, ARestoredStateLearnsOnWhereItLeftOff) {
  FakeClock clock;
  BaselineTracker before(settings(3));
  before.use_source(kProbe);
  before.record(0, clock.now, 100);
  before.record(0, clock.advance(10s), 120);

  BaselineTracker after(settings(3));
  after.restore(*before.source(), before.readings());
  EXPECT_EQ(after.readings(), before.readings());
  EXPECT_FALSE(after.use_source(kProbe));  // the same source keeps what was restored
  after.record(0, clock.advance(10s), 110);
  EXPECT_DOUBLE_EQ(*after.baseline(0).read_latency_ns, 101);
}

TEST(BaselineTracker, ReadingsThatAreNoLatencyAreIgnored) {
  FakeClock clock;
  BaselineTracker tracker(settings(1));
  tracker.use_source(kProbe);
  tracker.record(0, clock.now, 0);
  tracker.record(0, clock.now, -3);
  tracker.record(0, clock.now, std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(tracker.baseline(0).samples, 0u);
}

TEST(BaselineTracker, AReloadAppliesTheNewQuantileToTheSameReadings) {
  FakeClock clock;
  BaselineTracker tracker(settings(1, 24h, 0));
  tracker.use_source(kProbe);
  tracker.record(0, clock.now, 100);
  tracker.record(0, clock.advance(10s), 200);
  EXPECT_DOUBLE_EQ(*tracker.baseline(0).read_latency_ns, 100);
  tracker.configure(settings(1, 24h, 0.5));
  EXPECT_DOUBLE_EQ(*tracker.baseline(0).read_latency_ns, 150);
  tracker.configure(settings(5));
  EXPECT_EQ(tracker.baseline(0).samples_needed, 3u);
}

}  // namespace
}  // namespace nb::metrics
