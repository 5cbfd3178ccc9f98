// The round engine's invariants: what a round keeps, what the history holds, when an effect is
// measured, and that a round's plan is what its record and job show.

#include "daemon/service/round_engine.hpp"

#include <gtest/gtest.h>

#include "daemon/codec/history_json.hpp"

namespace nb::service {
namespace {

using std::chrono::seconds;

const TimePoint kNow = TimePoint(seconds(1'780'000'000));

rounds::RoundRecord acted(std::uint64_t number) {
  rounds::RoundRecord record;
  record.number = number;
  record.time = kNow + seconds(number);
  record.status = rounds::RoundStatus::ready;
  record.outcome = rounds::RoundOutcome::done;
  record.source_node = 1;
  record.dest_nodes = {0};
  record.migrated = true;
  return record;
}

core::Snapshot two_nodes(TimePoint time, double hot_ns) {
  core::Snapshot snapshot;
  snapshot.time = time;
  for (NodeId id : {0, 1}) {
    core::Node node;
    node.id = id;
    node.read_latency_ns = id == 1 ? hot_ns : 80.0;
    node.bandwidth_gbps = id == 1 ? 20.0 : 5.0;
    snapshot.nodes.push_back(node);
  }
  return snapshot;
}

// A decision that moves `moves` off node 1 to node 0 and evicts `evict`.
core::Decision moving(std::vector<core::ContainerMove> moves,
                      std::vector<core::ContainerEviction> evict = {}) {
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.source_node = 1;
  decision.dest_nodes = {0};
  for (const auto& move : moves) {
    decision.total_bytes += move.bytes_on_source;
  }
  decision.migrate = std::move(moves);
  decision.evict = std::move(evict);
  return decision;
}

core::Decision failing() {
  core::Decision decision;
  decision.status = core::DecisionStatus::failed;
  decision.reason = "pressure but no container can be migrated or evicted";
  return decision;
}

// An engine whose policy answers `next` and remembers the history it was shown.
struct Fixture {
  core::Decision next = failing();
  std::vector<std::size_t> history_sizes;
  RoundEngine engine;

  explicit Fixture(std::size_t keep = kRoundsKept)
      : engine({[this](const core::Snapshot&, const core::PolicyConfig&,
                       const core::History& history, TimePoint) {
                  history_sizes.push_back(history.size());
                  return next;
                },
                [](std::string_view id) { return std::filesystem::path("/cg") / id; }, true},
               keep) {}

  DecidedRound round(TimePoint time, const config::EvictionConfig& eviction = {},
                     bool job_running = false, double hot_ns = 200) {
    const core::Snapshot snapshot = two_nodes(time, hot_ns);
    return engine.decide(engine.open(time, "timer"), RoundInputs{.snapshot = snapshot,
                                                                 .policy = policy,
                                                                 .eviction = eviction,
                                                                 .job_running = job_running});
  }

  core::PolicyConfig policy;
};

JobResult moved(Bytes bytes) {
  actuator::MigrationReport report;
  report.source_node = 1;
  report.dest_nodes = {0};
  report.budget = bytes;
  report.threshold_met = true;
  actuator::ContainerReport container;
  container.id = "batch/a";
  actuator::ProcessReport process;
  process.bytes_moved_to[0] = bytes;
  container.processes.push_back(process);
  report.containers.push_back(container);
  JobResult result;
  result.report = report;
  return result;
}

void expect_in_step(const RoundEngine& engine) {
  const core::History rebuilt = rounds::to_history(engine.rounds());
  ASSERT_EQ(engine.history().size(), rebuilt.size());
  for (std::size_t i = 0; i < rebuilt.size(); ++i) {
    EXPECT_EQ(codec::to_json(engine.history()[i]), codec::to_json(rebuilt[i])) << "entry " << i;
  }
}

TEST(RoundEngine, ARoundThatStartsAJobEntersTheHistoryWhenTheJobMoved) {
  Fixture f;
  f.next = moving({{"batch/a", kGiB, {0}}});
  DecidedRound started = f.round(kNow);
  EXPECT_EQ(started.record.outcome, rounds::RoundOutcome::started);
  ASSERT_TRUE(started.job.has_value());
  EXPECT_EQ(started.job->budget, kGiB);
  EXPECT_EQ(started.job->targets.at(0).cgroup_dir, "/cg/batch/a");
  EXPECT_EQ(started.record.latencies_before.at(1), 200.0) << "readings for its effect";
  EXPECT_TRUE(f.engine.history().empty());

  DecidedRound deferred = f.round(kNow + seconds(10), {}, true);
  EXPECT_EQ(deferred.record.outcome, rounds::RoundOutcome::deferred);
  ASSERT_TRUE(f.engine.deferred().has_value());
  EXPECT_EQ(f.engine.deferred()->number, deferred.record.number);

  EndedJob ended =
      f.engine.end_job(started.record.number, moved(kGiB), false, kNow + seconds(20), "none");
  EXPECT_TRUE(ended.kept);
  EXPECT_EQ(ended.record.outcome, rounds::RoundOutcome::done);
  EXPECT_EQ(ended.record.moved_bytes, kGiB);
  ASSERT_EQ(f.engine.history().size(), 1u);
  EXPECT_TRUE(f.engine.history().back().effect_pending);
  expect_in_step(f.engine);
}

TEST(RoundEngine, ARoundWithNothingToDoIsNotKept) {
  Fixture f;
  f.next = core::Decision{};  // idle
  DecidedRound round = f.round(kNow);
  EXPECT_EQ(round.record.outcome, rounds::RoundOutcome::none);
  EXPECT_TRUE(f.engine.rounds().empty());
  EXPECT_EQ(f.engine.find(round.record.number), nullptr);
}

TEST(RoundEngine, TheEffectIsMeasuredOnceDueAndTheHistoryEntryUpdatedInPlace) {
  Fixture f;
  f.policy.effect_delay = seconds(60);
  f.next = moving({{"batch/a", kGiB, {0}}});
  DecidedRound started = f.round(kNow);
  f.engine.end_job(started.record.number, moved(kGiB), false, kNow + seconds(10), "none");
  f.next = core::Decision{};

  EXPECT_TRUE(f.round(kNow + seconds(69)).effects.empty()) << "before effect_delay";
  DecidedRound due = f.round(kNow + seconds(70), {}, false, 120);
  ASSERT_EQ(due.effects.size(), 1u);
  EXPECT_EQ(due.effects[0].number, started.record.number);
  ASSERT_TRUE(due.effects[0].effect.has_value());
  EXPECT_TRUE(due.effects[0].effect->effect.improved);
  ASSERT_EQ(f.engine.history().size(), 1u);
  EXPECT_FALSE(f.engine.history()[0].effect_pending);
  EXPECT_TRUE(f.engine.history()[0].effect.has_value());
  expect_in_step(f.engine);
  EXPECT_TRUE(f.round(kNow + seconds(80)).effects.empty()) << "measured once";
}

TEST(RoundEngine, AnEvictedContainerIsLeftOutOfThePlanTheRecordAndTheJob) {
  Fixture f;
  f.next = moving({{"batch/job1", 2 * kGiB, {0}}, {"batch/job2", kGiB, {0}}},
                  {{"batch/job1", 2 * kGiB}});
  config::EvictionConfig freeze;
  freeze.action = "freeze";
  DecidedRound round = f.round(kNow, freeze);
  EXPECT_EQ(round.decision.total_bytes, kGiB);
  ASSERT_EQ(round.decision.migrate.size(), 1u);
  EXPECT_EQ(round.decision.migrate[0].id, "batch/job2");
  EXPECT_EQ(round.record.planned_bytes, kGiB);
  EXPECT_EQ(round.record.containers, std::vector<std::string>{"batch/job2"});
  ASSERT_TRUE(round.job.has_value());
  EXPECT_EQ(round.job->budget, kGiB);
  ASSERT_EQ(round.job->evictions.size(), 1u);
  EXPECT_EQ(round.job->evictions[0].container_id, "batch/job1");
}

TEST(RoundEngine, WithoutAnEvictionActionThePlanMigratesEveryContainer) {
  Fixture f;
  f.next = moving({{"batch/job1", 2 * kGiB, {0}}, {"batch/job2", kGiB, {0}}},
                  {{"batch/job1", 2 * kGiB}});
  DecidedRound round = f.round(kNow);
  EXPECT_EQ(round.record.planned_bytes, 3 * kGiB);
  ASSERT_TRUE(round.job.has_value());
  EXPECT_EQ(round.job->targets.size(), 2u);
  EXPECT_TRUE(round.job->evictions.empty());
}

TEST(RoundEngine, TrimmingDropsTheOldestRoundsThatDidNotActFirst) {
  Fixture f(3);
  rounds::RoundRecord failed = acted(2);
  failed.migrated = false;
  failed.outcome = rounds::RoundOutcome::failed;
  f.engine.restore({acted(1), failed, acted(3), acted(4)});
  EXPECT_EQ(f.engine.next_number(), 5u);
  f.engine.fail(f.engine.open(kNow + seconds(5), "timer"), "reading the host failed");
  expect_in_step(f.engine);
  EXPECT_EQ(f.engine.find(2), nullptr);
  EXPECT_NE(f.engine.find(1), nullptr);
  EXPECT_NE(f.engine.find(5), nullptr);
  EXPECT_EQ(f.engine.history().size(), 3u);
}

TEST(RoundEngine, TrimmingKeepsTheNewestActedRoundsAndTrimsTheirHistory) {
  Fixture f(2);
  f.engine.restore({acted(1), acted(3), acted(4)});
  f.engine.fail(f.engine.open(kNow + seconds(5), "timer"), "reading the host failed");
  std::vector<std::uint64_t> numbers;
  for (const auto& round : f.engine.rounds()) {
    numbers.push_back(round.number);
  }
  EXPECT_EQ(numbers, (std::vector<std::uint64_t>{3, 4, 5}));
  ASSERT_EQ(f.engine.history().size(), 2u);
  EXPECT_EQ(f.engine.history().front().time, acted(3).time);
  expect_in_step(f.engine);
}

// A pressure nothing relieves makes a failed round every interval: many of them must not push out
// the migration whose ping-pong ban they would otherwise lift.
TEST(RoundEngine, AFloodOfFailedRoundsKeepsTheLastMigration) {
  Fixture f;
  f.engine.restore({acted(1)});
  for (std::size_t i = 0; i < 3 * kRoundsKept; ++i) {
    EXPECT_EQ(f.round(kNow + seconds(10 + static_cast<long>(i))).record.outcome,
              rounds::RoundOutcome::failed);
  }
  EXPECT_EQ(f.engine.rounds().size(), kRoundsKept + 1);
  EXPECT_NE(f.engine.find(1), nullptr);
  ASSERT_EQ(f.engine.history().size(), 1u);
  EXPECT_EQ(f.history_sizes.back(), 1u) << "the policy still reads the migration";
  expect_in_step(f.engine);
}

TEST(RoundEngine, AJobWhoseRoundWasTrimmedIsRecordedNowhere) {
  Fixture f(1);
  f.next = moving({{"batch/a", kGiB, {0}}});
  DecidedRound started = f.round(kNow);
  f.next = failing();
  f.round(kNow + seconds(1), {}, true);
  f.round(kNow + seconds(2), {}, true);
  EndedJob ended =
      f.engine.end_job(started.record.number, moved(kGiB), false, kNow + seconds(3), "none");
  EXPECT_FALSE(ended.kept);
  EXPECT_EQ(ended.record.moved_bytes, kGiB);
  EXPECT_TRUE(f.engine.history().empty());
}

TEST(RoundEngine, OnlyTheNewestFullReportsAreKept) {
  Fixture f;
  std::vector<std::uint64_t> numbers;
  for (std::size_t i = 0; i < kFullReportsKept + 2; ++i) {
    f.next = moving({{"batch/a", kGiB, {0}}});
    DecidedRound started = f.round(kNow + seconds(static_cast<long>(100 * i)));
    f.engine.end_job(started.record.number, moved(kGiB), false,
                     kNow + seconds(static_cast<long>(100 * i + 1)), "none");
    numbers.push_back(started.record.number);
  }
  EXPECT_FALSE(f.engine.find(numbers[0])->full_report.has_value());
  EXPECT_FALSE(f.engine.find(numbers[1])->full_report.has_value());
  EXPECT_TRUE(f.engine.find(numbers[2])->full_report.has_value());
  EXPECT_TRUE(f.engine.find(numbers.back())->full_report.has_value());
}

}  // namespace
}  // namespace nb::service
