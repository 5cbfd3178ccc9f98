#include "daemon/sim/scenario_load.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace nb::sim {
namespace {

using ::testing::HasSubstr;

// Two nodes, two pools, one container: every line below is numbered for the bad-input table.
const std::string kGood = R"(duration = "1h"
interval = "10s"
seed = 4
[[node]]
id = 0
cpus = "0-3"
memory = "64GiB"
idle_latency_ns = 90
peak_bandwidth_gbps = 100
[[node]]
id = 1
cpus = ""
memory = "128GiB"
idle_latency_ns = 180
peak_bandwidth_gbps = 50
background_gbps = 2
[distance]
"0" = [10, 17]
"1" = [17, 10]
[[pool]]
name = "share"
[[container]]
id = "web.service"
pool = "share"
cpu_node = 0
memory = { "0" = "8GiB", "1" = "1GiB" }
bandwidth_gbps = 5
latency_sensitive = true
[[event]]
at = "10m"
container = "web.service"
bandwidth_gbps = 20
[policy]
min_interval = "1m"
)";

TEST(ScenarioLoad, ReadsEveryTableAndKeepsTheConfigUnderIt) {
  config::Config base;
  base.policy.ping_pong_window = std::chrono::minutes(7);
  ScenarioLoad load = load_scenario_string(kGood, "good.toml", base);
  ASSERT_TRUE(load.ok()) << load.problems.front().to_string();
  const Scenario& s = load.scenario;
  EXPECT_EQ(s.duration, std::chrono::hours(1));
  EXPECT_EQ(s.seed, 4);
  ASSERT_EQ(s.nodes.size(), 2u);
  EXPECT_TRUE(s.nodes[1].memory_only());
  EXPECT_EQ(s.nodes[1].background_gbps, 2);
  EXPECT_EQ(s.distance.at(0).at(1), 17);
  ASSERT_EQ(s.pools.size(), 1u);
  EXPECT_EQ(s.pools[0].nodes, std::vector<NodeId>{0});  // no `nodes`: the nodes with CPUs
  ASSERT_EQ(s.containers.size(), 1u);
  EXPECT_EQ(s.containers[0].memory.at(0), 8 * kGiB);
  EXPECT_TRUE(s.containers[0].latency_sensitive);
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(*s.events[0].bandwidth_gbps, 20);
  EXPECT_EQ(s.config.policy.min_interval, std::chrono::minutes(1));      // the scenario's key wins
  EXPECT_EQ(s.config.policy.ping_pong_window, std::chrono::minutes(7));  // --config's stays
}

struct BadInput {
  const char* what;
  std::string from;
  std::string to;
  std::string key;
  int line;
  const char* message;
};

// Test names show what is wrong, not the struct's bytes.
void PrintTo(const BadInput& bad, std::ostream* out) {
  *out << bad.what;
}

std::string replaced(const std::string& from, const std::string& to) {
  std::string text = kGood;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

class ScenarioBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(ScenarioBadInput, NamesTheKeyAndItsLine) {
  const BadInput& bad = GetParam();
  ScenarioLoad load =
      load_scenario_string(replaced(bad.from, bad.to), "bad.toml", config::Config{});
  ASSERT_FALSE(load.ok()) << bad.what;
  const config::ConfigProblem& problem = load.problems.front();
  EXPECT_EQ(problem.key, bad.key) << bad.what << ": " << problem.to_string();
  EXPECT_EQ(problem.line, bad.line) << bad.what << ": " << problem.to_string();
  EXPECT_THAT(problem.message, HasSubstr(bad.message)) << bad.what;
}

INSTANTIATE_TEST_SUITE_P(
    Table, ScenarioBadInput,
    ::testing::Values(
        BadInput{"unknown key", "seed = 4", "sead = 4", "sead", 3, "unknown key"},
        BadInput{"bad type", "peak_bandwidth_gbps = 100", "peak_bandwidth_gbps = \"fast\"",
                 "node[0].peak_bandwidth_gbps", 9, "must be a number"},
        BadInput{"bad size", "memory = \"64GiB\"", "memory = \"lots\"", "node[0].memory", 7,
                 "size"},
        BadInput{"unknown pool", "pool = \"share\"", "pool = \"shared\"", "container[0].pool", 24,
                 "pool \"shared\" is not a [[pool]]"},
        BadInput{"unknown node in memory", "\"1\" = \"1GiB\"", "\"5\" = \"1GiB\"",
                 "container[0].memory.\"5\"", 26, "node 5 is not a [[node]]"},
        BadInput{"cpu node without CPUs", "cpu_node = 0", "cpu_node = 1", "container[0].cpu_node",
                 25, "not a [[node]] with CPUs"},
        BadInput{"unknown container in an event", "container = \"web.service\"\nbandwidth",
                 "container = \"db.service\"\nbandwidth", "event[0].container", 31,
                 "container \"db.service\" is not a [[container]]"},
        BadInput{"unknown node in an event", "container = \"web.service\"\nbandwidth_gbps = 20",
                 "node = 9\nbackground_gbps = 20", "event[0].node", 31, "node 9 is not a [[node]]"},
        BadInput{"short distance row", "\"0\" = [10, 17]", "\"0\" = [10]", "distance.\"0\"", 18,
                 "one distance per node"},
        BadInput{"policy key of the config", "min_interval = \"1m\"", "min_interval = 5",
                 "policy.min_interval", 34, "must be a duration"},
        BadInput{"policy value the config refuses", "min_interval = \"1m\"",
                 "migrate_threshold = 2.0", "policy.migrate_threshold", 34, "must be in"},
        BadInput{"missing key", "idle_latency_ns = 90\n", "", "node[0].idle_latency_ns", 4,
                 "required"}));

TEST(ScenarioLoad, ASyntaxErrorHasItsLine) {
  ScenarioLoad load = load_scenario_string("duration = \n", "broken.toml", config::Config{});
  ASSERT_FALSE(load.ok());
  EXPECT_EQ(load.problems.front().line, 1);
}

}  // namespace
}  // namespace nb::sim
