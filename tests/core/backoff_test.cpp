// Back-off: after backoff_after rounds off a node in a row did not lower its latency, the next
// round off it waits min_interval x 2^(k - backoff_after + 1), at most max_backoff.

#include "core/backoff.hpp"

#include <gtest/gtest.h>

#include "tests/core/snapshot_builder.hpp"

namespace nb::core::testing {
namespace {

// One measured round that migrated off `source`, `age` before now; nullopt `improved`: no effect.
Round measured(Duration age, std::optional<bool> improved, NodeId source = 0) {
  Round round{kNow - age, source, {1}, true, false, {}};
  if (improved) {
    round.effect =
        RoundEffect{*improved, 150, *improved ? 120.0 : 148.0, 50, *improved ? 10.0 : 47.0};
  }
  return round;
}

struct BackoffCase {
  const char* name;
  History history;  // any order
  std::optional<int> failed_rounds;
  Duration wait{};
  Duration newest_age{};
};

class BackoffRule : public ::testing::TestWithParam<BackoffCase> {};

TEST_P(BackoffRule, CountsTheRunAndDoublesTheWait) {
  const BackoffCase& c = GetParam();
  const auto backoff = backoff_for(c.history, 0, PolicyConfig{});
  ASSERT_EQ(backoff.has_value(), c.failed_rounds.has_value());
  if (backoff) {
    EXPECT_EQ(backoff->failed_rounds, *c.failed_rounds);
    EXPECT_EQ(backoff->wait, c.wait);
    EXPECT_EQ(backoff->newest, kNow - c.newest_age);
  }
}

History failures(int count, Duration newest_age = 10s) {
  History history;
  for (int i = 0; i < count; ++i) {
    history.push_back(measured(newest_age + i * 5min, false));
  }
  return history;
}

// Defaults: min_interval 30 s, backoff_after 3, max_backoff 30 min.
INSTANTIATE_TEST_SUITE_P(
    Cases, BackoffRule,
    ::testing::Values(
        BackoffCase{"NoRounds", {}, std::nullopt},
        BackoffCase{"TwoFailuresAreTooFew", failures(2), std::nullopt},
        BackoffCase{"ThreeFailuresWaitTwiceMinInterval", failures(3), 3, 60s, 10s},
        BackoffCase{"FourFailuresWaitFourTimes", failures(4), 4, 120s, 10s},
        BackoffCase{"EightFailuresReachTheCap", failures(8), 8, 30min, 10s},
        BackoffCase{"ThousandsOfFailuresStayAtTheCap", failures(2000), 2000, 30min, 10s},
        BackoffCase{"AnImprovingRoundEndsTheRun",
                    {measured(1min, false), measured(2min, false), measured(3min, true),
                     measured(4min, false), measured(5min, false)},
                    std::nullopt},
        BackoffCase{"AnOlderImprovementDoesNotShortenARunLongEnough",
                    {measured(1min, false), measured(2min, false), measured(3min, false),
                     measured(4min, true)},
                    3,
                    60s,
                    1min},
        BackoffCase{"RoundsWithoutAnEffectNeitherExtendNorEnd",
                    {measured(1min, std::nullopt), measured(2min, false),
                     measured(3min, std::nullopt), measured(4min, false), measured(5min, false)},
                    3,
                    60s,
                    2min},
        BackoffCase{"OnlyRoundsOffTheSameNodeCount",
                    {measured(1min, false), measured(2min, false, 1), measured(3min, false)},
                    std::nullopt},
        BackoffCase{"TheHistorysOrderDoesNotMatter",
                    {measured(9min, false), measured(1min, false), measured(5min, false)},
                    3,
                    60s,
                    1min}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(BackoffRule, EvictOnlyRoundsAreNotRoundsOffTheNode) {
  History history = failures(3);
  history[0].migrated = false;
  history[0].evicted = true;
  EXPECT_FALSE(backoff_for(history, 0, PolicyConfig{}));
}

TEST(BackoffRule, ZeroBackoffAfterTurnsItOff) {
  PolicyConfig config;
  config.backoff_after = 0;
  EXPECT_FALSE(backoff_for(failures(10), 0, config));
}

TEST(BackoffRule, MinIntervalBackoffAfterAndMaxBackoffComeFromTheConfig) {
  PolicyConfig config;
  config.min_interval = 10s;
  config.backoff_after = 1;
  config.max_backoff = 50s;
  EXPECT_EQ(backoff_for(failures(1), 0, config)->wait, 20s);
  EXPECT_EQ(backoff_for(failures(2), 0, config)->wait, 40s);
  EXPECT_EQ(backoff_for(failures(3), 0, config)->wait, 50s);
}

// Node 0 is hot, node 1 a good destination; the newest failure is past min_interval, so only
// the back-off can hold the round.
Snapshot hot_node_zero() {
  return SnapshotBuilder()
      .node(0, 100, 30)
      .node(1, 40, 10)
      .pool("share", {0, 1})
      .container("app", "share", {{0, kGiB}})
      .build();
}

struct HoldCase {
  const char* name;
  Duration newest_age;
  int failures;
  DecisionStatus status;
};

class BackoffDecision : public ::testing::TestWithParam<HoldCase> {};

TEST_P(BackoffDecision, HoldsTheRoundUntilTheWaitIsOver) {
  const HoldCase& c = GetParam();
  const Decision decision =
      decide_at_now(hot_node_zero(), PolicyConfig{}, failures(c.failures, c.newest_age));
  EXPECT_EQ(decision.status, c.status) << decision.reason;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BackoffDecision,
    ::testing::Values(HoldCase{"WithinTheWait", 45s, 3, DecisionStatus::cooldown},
                      HoldCase{"AtTheEndOfTheWait", 60s, 3, DecisionStatus::ready},
                      HoldCase{"TooFewFailures", 45s, 2, DecisionStatus::ready},
                      HoldCase{"ALongerRunWaitsLonger", 100s, 4, DecisionStatus::cooldown},
                      HoldCase{"ALongerRunsWaitEnds", 120s, 4, DecisionStatus::ready}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(BackoffDecision, ReasonAndExplanationNameTheRunAndTheWait) {
  const Decision held = decide_at_now(hot_node_zero(), PolicyConfig{}, failures(4, 100s), true);
  EXPECT_EQ(held.reason, "backoff: the last 4 rounds off node 0 did not lower its latency");
  const auto& lines = held.explanation;
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "backoff: the last 4 rounds off node 0 did not lower its latency: wait "
                      "2 min (min_interval 30 s doubled per round past 2, at most max_backoff "
                      "30 min) after the newest, 100 s ago"),
            lines.end())
      << ::testing::PrintToString(lines);
}

TEST(BackoffDecision, OneRoundIsNamedInTheSingular) {
  PolicyConfig config;
  config.backoff_after = 1;
  const Decision held = decide_at_now(hot_node_zero(), config, failures(1, 40s), true);
  EXPECT_EQ(held.reason, "backoff: the last round off node 0 did not lower its latency");
}

TEST(BackoffDecision, ExplanationSaysWhyThereIsNone) {
  const Decision decision =
      decide_at_now(hot_node_zero(), PolicyConfig{}, failures(1, 10min), true);
  const auto& lines = decision.explanation;
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "backoff: none, the last 1 round(s) off node 0 did not lower its latency, "
                      "fewer than backoff_after 3"),
            lines.end())
      << ::testing::PrintToString(lines);
}

TEST(BackoffDecision, ExplanationSaysWhenNothingWasMeasuredOrTheNewestImproved) {
  auto explains = [](const History& history, const std::string& line) {
    const auto lines = decide_at_now(hot_node_zero(), PolicyConfig{}, history, true).explanation;
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  };
  EXPECT_TRUE(explains({}, "backoff: none, no round off node 0 has a measured effect"));
  EXPECT_TRUE(explains({measured(10min, true), measured(20min, false)},
                       "backoff: none, the newest measured round off node 0 lowered its latency"));
}

TEST(BackoffDecision, MinIntervalsCooldownComesFirst) {
  const Decision decision = decide_at_now(hot_node_zero(), PolicyConfig{}, failures(3, 10s));
  EXPECT_EQ(decision.status, DecisionStatus::cooldown);
  EXPECT_NE(decision.reason.find("within min_interval"), std::string::npos) << decision.reason;
}

}  // namespace
}  // namespace nb::core::testing
