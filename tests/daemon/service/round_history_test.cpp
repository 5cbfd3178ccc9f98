#include "daemon/service/round_history.hpp"

#include <gtest/gtest.h>

#include "daemon/codec/history_json.hpp"

namespace nb::service {
namespace {

const TimePoint kNow = TimePoint(std::chrono::seconds(1'780'000'000));

codec::RoundRecord decided_round(std::uint64_t number) {
  codec::RoundRecord record;
  record.number = number;
  record.time = kNow + std::chrono::seconds(number);
  record.status = codec::RoundStatus::ready;
  record.outcome = codec::RoundOutcome::started;
  record.source_node = 1;
  record.dest_nodes = {0};
  return record;
}

codec::RoundRecord acted(std::uint64_t number) {
  codec::RoundRecord record = decided_round(number);
  record.outcome = codec::RoundOutcome::done;
  record.migrated = true;
  return record;
}

struct Kept {
  std::vector<codec::RoundRecord> rounds;
  core::History history;
};

Kept loaded(std::vector<codec::RoundRecord> rounds) {
  Kept kept{std::move(rounds), {}};
  kept.history = codec::to_history(kept.rounds);
  return kept;
}

// What the daemon did before keeping the history in step: rebuild it from every record.
void expect_in_step(const Kept& kept) {
  const core::History rebuilt = codec::to_history(kept.rounds);
  ASSERT_EQ(kept.history.size(), rebuilt.size());
  for (std::size_t i = 0; i < rebuilt.size(); ++i) {
    EXPECT_EQ(codec::to_json(kept.history[i]), codec::to_json(rebuilt[i])) << "entry " << i;
  }
}

TEST(RoundHistory, AJobThatEndsAddsItsRoundOnce) {
  Kept kept = loaded({acted(1)});
  remember(kept.rounds, kept.history, decided_round(2));
  remember(kept.rounds, kept.history, decided_round(3));  // deferred while round 2's job runs
  expect_in_step(kept);
  codec::RoundRecord* running = find_round(kept.rounds, 2);
  ASSERT_NE(running, nullptr);
  running->evicted = {"pods/a"};
  job_ended(kept.history, *running);
  expect_in_step(kept);
  ASSERT_EQ(kept.history.size(), 2u);
  EXPECT_TRUE(kept.history.back().evicted);
}

TEST(RoundHistory, AJobThatDidNothingAddsNothing) {
  Kept kept;
  remember(kept.rounds, kept.history, decided_round(1));
  job_ended(kept.history, *find_round(kept.rounds, 1));
  EXPECT_TRUE(kept.history.empty());
  expect_in_step(kept);
}

TEST(RoundHistory, TrimmingDropsTheOldestRoundsThatDidNotActFirst) {
  Kept kept = loaded({acted(1), decided_round(2), acted(3), acted(4)});
  remember(kept.rounds, kept.history, decided_round(5), 3);
  expect_in_step(kept);
  EXPECT_EQ(find_round(kept.rounds, 2), nullptr);
  EXPECT_NE(find_round(kept.rounds, 1), nullptr);
  EXPECT_EQ(kept.history.size(), 3u);
}

TEST(RoundHistory, TrimmingKeepsTheNewestActedRoundsAndTrimsTheirHistory) {
  Kept kept = loaded({acted(1), acted(3), acted(4), decided_round(5)});
  remember(kept.rounds, kept.history, acted(6), 2);
  expect_in_step(kept);
  std::vector<std::uint64_t> numbers;
  for (const auto& round : kept.rounds) {
    numbers.push_back(round.number);
  }
  EXPECT_EQ(numbers, (std::vector<std::uint64_t>{4, 5, 6}));
  ASSERT_EQ(kept.history.size(), 2u);
  EXPECT_EQ(kept.history.front().time, acted(4).time);
}

// A pressure nothing relieves makes a failed round every interval: five hundred of them must not
// push out the migration whose ping-pong ban they would otherwise lift.
TEST(RoundHistory, AFloodOfRoundsThatDidNotActKeepsTheLastMigration) {
  Kept kept = loaded({acted(1)});
  for (std::uint64_t number = 2; number < 2 + 3 * kRoundsKept; ++number) {
    codec::RoundRecord failed = decided_round(number);
    failed.outcome = codec::RoundOutcome::failed;
    remember(kept.rounds, kept.history, failed);
  }
  EXPECT_EQ(kept.rounds.size(), kRoundsKept + 1);
  EXPECT_NE(find_round(kept.rounds, 1), nullptr);
  ASSERT_EQ(kept.history.size(), 1u);
  EXPECT_TRUE(kept.history.front().migrated);
  expect_in_step(kept);
}

}  // namespace
}  // namespace nb::service
