// The loop: deterministic, measures effects and backs off, and `off` takes no rounds.

#include "daemon/sim/simulation.hpp"

#include <gtest/gtest.h>

#include "daemon/sim/output.hpp"
#include "daemon/sim/scenario_load.hpp"

namespace nb::sim {
namespace {

// Node 0 carries traffic nothing owns; the reclaim containers on it move, and help nothing.
Scenario unmovable() {
  std::string text = R"(duration = "30m"
interval = "10s"
noise = 0.02
seed = 9
[[node]]
id = 0
cpus = "0-3"
memory = "256GiB"
idle_latency_ns = 90
peak_bandwidth_gbps = 100
background_gbps = 10
[[node]]
id = 1
cpus = "4-7"
memory = "256GiB"
idle_latency_ns = 90
peak_bandwidth_gbps = 100
[distance]
"0" = [10, 21]
"1" = [21, 10]
[[pool]]
name = "reclaim"
[[event]]
at = "5m"
node = 0
background_gbps = 85
[policy]
reclaim_round_max_bytes = "1GiB"
reclaim_round_enough_bytes = "512MiB"
[metrics.baseline]
min_samples = 20
)";
  for (int i = 0; i < 40; ++i) {
    text += "[[container]]\nid = \"c" + std::to_string(i) +
            "\"\npool = \"reclaim\"\ncpu_node = 0\nmemory = { \"0\" = \"1GiB\" }\n"
            "bandwidth_gbps = 0.01\n";
  }
  ScenarioLoad load = load_scenario_string(text, "unmovable", config::Config{});
  EXPECT_TRUE(load.ok()) << load.problems.front().to_string();
  return load.scenario;
}

Mode relative() {
  return Mode{"relative", true, core::ThresholdMode::relative, core::Strategy::katalyst};
}

TEST(Simulation, TheSameScenarioGivesTheSameOutput) {
  const Scenario scenario = unmovable();
  std::string first;
  std::string second;
  run_mode(scenario, relative(), true,
           [&](const RoundReport& r) { first += round_json("relative", r).dump(); });
  run_mode(scenario, relative(), true,
           [&](const RoundReport& r) { second += round_json("relative", r).dump(); });
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(first, second);
}

TEST(Simulation, RoundsThatDoNotHelpAreMeasuredAndBackedOff) {
  const Scenario scenario = unmovable();
  int backoff_rounds = 0;
  run_mode(scenario, relative(), true, [&](const RoundReport& r) {
    if (r.decision->reason.rfind("backoff:", 0) == 0) {
      ++backoff_rounds;
    }
  });
  const Summary with = run_mode(scenario, relative(), true, nullptr);
  const Summary without = run_mode(scenario, relative(), false, nullptr);
  EXPECT_GT(backoff_rounds, 0);
  EXPECT_GT(with.effects.at("not_improved"), 0);
  EXPECT_EQ(with.effects.count("improved"), 0u);
  EXPECT_LT(with.bytes_moved, without.bytes_moved);
}

TEST(Simulation, OffTakesNoRoundsButMeasuresTheHost) {
  const Summary off =
      run_mode(unmovable(), Mode{"off", false, std::nullopt, std::nullopt}, true, nullptr);
  EXPECT_EQ(off.rounds, 0);
  EXPECT_EQ(off.bytes_moved, 0);
  EXPECT_FALSE(off.sensitive_latency_mean_ns.has_value());  // nothing here is sensitive
  ASSERT_TRUE(off.final_latency_spread.has_value());
  EXPECT_GT(*off.final_latency_spread, 1.5);
}

TEST(Modes, ParseTheListAndRefuseUnknownOrRepeatedNames) {
  auto modes = parse_modes("off,absolute,relative,auto");
  ASSERT_TRUE(modes.ok());
  ASSERT_EQ(modes->size(), 4u);
  EXPECT_FALSE((*modes)[0].rounds);
  EXPECT_EQ((*modes)[1].threshold_mode, core::ThresholdMode::absolute);
  EXPECT_EQ((*modes)[3].threshold_mode, core::ThresholdMode::automatic);
  EXPECT_FALSE(parse_modes("off,fast").ok());
  EXPECT_FALSE(parse_modes("off,off").ok());
}

}  // namespace
}  // namespace nb::sim
