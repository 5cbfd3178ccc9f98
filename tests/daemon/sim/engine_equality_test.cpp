// The simulator judges the daemon's code: every round `simulate` reports is the round the daemon's
// RoundEngine gives when driven directly with the same snapshots, policies and finished jobs. A
// simulator that grew a round logic of its own (a different outcome, a history the policy reads
// differently, an effect measured elsewhere) fails here.

#include <gtest/gtest.h>

#include "daemon/codec/decision_json.hpp"
#include "daemon/service/round_engine.hpp"
#include "daemon/sim/scenario_load.hpp"
#include "daemon/sim/simulation.hpp"

namespace nb::sim {
namespace {

struct Replay {
  service::RoundEngine engine;
  std::optional<std::uint64_t> running;  // the round whose job runs
  std::size_t rounds = 0;
  std::size_t jobs = 0;
  std::size_t effects = 0;
};

void expect_same_round(Replay& replay, const RoundReport& simulated) {
  ASSERT_NE(simulated.inputs, nullptr);
  for (const EndedJobReport& ended : simulated.jobs_ended) {
    ASSERT_EQ(replay.running, ended.round_number) << "at " << simulated.second << " s";
    service::JobResult result;
    result.report = ended.report;
    replay.engine.end_job(ended.round_number, result, false, ended.finished, "none");
    replay.running.reset();
  }
  const config::EvictionConfig no_eviction;
  const service::RoundInputs& given = *simulated.inputs;
  EXPECT_EQ(given.job_running, replay.running.has_value()) << "at " << simulated.second << " s";
  service::DecidedRound direct =
      replay.engine.decide(replay.engine.open(given.snapshot.time, "timer"),
                           service::RoundInputs{.snapshot = given.snapshot,
                                                .policy = given.policy,
                                                .eviction = no_eviction,
                                                .job_running = replay.running.has_value()});
  ASSERT_NE(simulated.decision, nullptr);
  EXPECT_EQ(codec::to_json(*simulated.decision), codec::to_json(direct.decision))
      << "at " << simulated.second << " s";
  EXPECT_EQ(simulated.outcome, rounds::to_string(direct.record.outcome))
      << "at " << simulated.second << " s";
  ASSERT_EQ(simulated.effects.size(), direct.effects.size()) << "at " << simulated.second << " s";
  if (direct.job) {
    replay.running = direct.record.number;
    ++replay.jobs;
  }
  ++replay.rounds;
  replay.effects += direct.effects.size();
}

struct Case {
  const char* scenario;
  Mode mode;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.scenario << " in " << c.mode.name;
}

class EngineEquality : public testing::TestWithParam<Case> {};

TEST_P(EngineEquality, EverySimulatedRoundIsTheEnginesRound) {
  const Case& c = GetParam();
  ScenarioLoad load = load_scenario_file(
      std::filesystem::path(NB_SOURCE_DIR) / "tests/data/sim" / c.scenario, config::Config{});
  ASSERT_TRUE(load.ok()) << load.problems.front().to_string();
  Replay replay;
  run_mode(load.scenario, c.mode, true,
           [&](const RoundReport& round) { expect_same_round(replay, round); });
  EXPECT_GT(replay.rounds, 0u);
  EXPECT_GT(replay.jobs, 0u) << "a scenario where the policy acts";
  EXPECT_GT(replay.effects, 0u) << "and its effects are measured";
}

const Mode kEqualize{"equalize", true, std::nullopt, core::Strategy::equalize};
const Mode kRelative{"relative", true, core::ThresholdMode::relative, core::Strategy::katalyst};

INSTANTIATE_TEST_SUITE_P(Scenarios, EngineEquality,
                         testing::Values(Case{"swinging.toml", kEqualize},
                                         Case{"swinging.toml", kRelative},
                                         Case{"two_services.toml", kEqualize},
                                         Case{"unmovable.toml", kRelative}),
                         [](const testing::TestParamInfo<Case>& info) {
                           std::string name = info.param.scenario;
                           name = name.substr(0, name.find('.')) + "_" + info.param.mode.name;
                           return name;
                         });

}  // namespace
}  // namespace nb::sim
