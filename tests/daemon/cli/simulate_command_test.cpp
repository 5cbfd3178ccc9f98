// `numabalancerd simulate` run as an operator runs it, on the scenarios shipped in
// tests/data/sim: each test holds a scenario to the bar issue #16 sets, read from the --json
// summary. A figure that misses its bar fails with the figure.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/daemon/cli/simulate_run.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::cli {
namespace {

using ::testing::HasSubstr;
using namespace nb::cli::testing;
namespace fs = std::filesystem;
using nlohmann::json;

TEST(SimulateAntagonist, RelativeLowersTheSensitiveLatencyWithoutReversing) {
  const Simulation run = shipped("antagonist", "--compare off,absolute,relative --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const double off = run.summary["off"]["sensitive_latency_mean_ns"];
  const double relative = run.summary["relative"]["sensitive_latency_mean_ns"];
  EXPECT_LE(relative, 0.9 * off) << "relative " << relative << " ns against off " << off << " ns";
  EXPECT_EQ(run.summary["relative"]["bytes_reversed"], 0);
  EXPECT_GT(run.summary["relative"]["bytes_moved"], 0);
  EXPECT_EQ(run.summary["off"]["rounds"], 0);
}

TEST(SimulateAntagonist, PrintsATableSideBySideWithRatiosToOff) {
  const Simulation run = shipped("antagonist", "--compare off,absolute,relative");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("sensitive latency mean (ns)"));
  EXPECT_THAT(run.out, HasSubstr("relative"));
  EXPECT_THAT(run.out, HasSubstr("x)"));
}

TEST(SimulateSwap, TheHotSpotMovesWithTheContainerAtMostOncePerWindow) {
  const Simulation run = shipped("swap", "--compare relative --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json& relative = run.summary["relative"];
  EXPECT_GT(relative["bytes_moved"], 0);
  EXPECT_GT(relative["effects"].value("not_improved", 0), 0) << relative.dump();
  EXPECT_EQ(relative["effects"].value("improved", 0), 0) << relative.dump();
  EXPECT_TRUE(relative["sensitive_latency_mean_ns"].is_number());
  // The default ping_pong_window is 15 min: jobs start at least that far apart.
  long previous = -100000;
  for (const json& round : run.rounds) {
    if (round["outcome"] == "started") {
      const long time = round["time"];
      EXPECT_GE(time - previous, 900)
          << "jobs started at " << previous << " s and " << time << " s";
      previous = time;
    }
  }
}

TEST(SimulateUnmovable, BackoffCutsTheBytesMovedForNothing) {
  const Simulation with = shipped("unmovable", "--compare relative --json");
  const Simulation without = shipped("unmovable", "--compare relative --no-backoff --json");
  ASSERT_EQ(with.exit_code, 0) << with.err;
  ASSERT_EQ(without.exit_code, 0) << without.err;
  const double moved = with.summary["relative"]["bytes_moved"];
  const double unchecked = without.summary["relative"]["bytes_moved"];
  EXPECT_GT(unchecked, 0);
  EXPECT_LE(moved, 0.3 * unchecked) << "with back-off " << moved << " bytes, without " << unchecked;
  EXPECT_EQ(with.summary["relative"]["effects"].value("improved", 0), 0);
}

TEST(SimulateBalanced, NothingMovesRelativeIsIdleAbsoluteSeesPressure) {
  const Simulation run = shipped("balanced", "--compare off,absolute,relative,auto --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const auto& [mode, summary] : run.summary.items()) {
    EXPECT_EQ(summary["bytes_moved"], 0) << mode;
  }
  bool calibrated = false;
  int relative_rounds = 0;
  for (const json& round : run.rounds) {
    if (round["mode"] == "relative") {
      ++relative_rounds;
      const std::string status = round["status"];
      // calibrating until the baselines are learned, then idle: nothing else, ever.
      EXPECT_EQ(status, calibrated || status == "idle" ? "idle" : "calibrating")
          << "at " << round["time"];
      calibrated = calibrated || status == "idle";
    } else if (round["mode"] == "absolute") {
      EXPECT_NE(round["pressure"], "none") << "at " << round["time"];
    }
  }
  EXPECT_GT(relative_rounds, 0);
  EXPECT_TRUE(calibrated);
}

TEST(SimulateMemoryOnly, TheMemoryOnlyNodeReceivesNothingUnlessAPoolNamesIt) {
  const Simulation run = shipped("memory_only", "--compare relative --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json& received = run.summary["relative"]["bytes_received_by_node"];
  EXPECT_GT(received.value("1", 0L), 0) << received.dump();
  EXPECT_EQ(received.value("2", 0L), 0) << received.dump();

  // The same host with the reclaim pool naming node 2: then it takes its share.
  nb::testing::TempTree tree;
  std::string text = nb::testing::read_file(kScenarios / "memory_only.toml");
  const std::string pool = "name = \"reclaim\"\n";
  ASSERT_NE(text.find(pool), std::string::npos);
  text.replace(text.find(pool), pool.size(), pool + "nodes = [0, 1, 2]\n");
  const fs::path variant = tree.make_file("memory_only_named.toml", text);
  const Simulation named = simulate(variant, "--compare relative --json");
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_GT(named.summary["relative"]["bytes_received_by_node"].value("2", 0L), 0)
      << named.summary["relative"].dump();
}

// bench/README.md times this one; here it must only keep loading and running.
TEST(SimulateBenchScenario, TheTwoHourFiftyContainerScenarioRunsInThreeModes) {
  const Simulation run = simulate(fs::path(NB_SOURCE_DIR) / "bench/simulate_2h_50_containers.toml",
                                  "--compare off,absolute,relative --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.summary.size(), 3u);
  EXPECT_EQ(run.rounds.size(), 2u * 720u);
}

TEST(SimulateBadInput, NamesTheKeyAndLineAndExitsTwo) {
  nb::testing::TempTree tree;
  std::string text = nb::testing::read_file(kScenarios / "balanced.toml");
  text.replace(text.find("seed = 3"), 8, "sede = 3");
  const fs::path bad = tree.make_file("bad.toml", text);
  const Simulation run = simulate(bad, "--json");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("sede (line 9, column 1): unknown key"));
}

TEST(SimulateBadInput, AnUnknownModeExitsTwo) {
  const Simulation run = shipped("balanced", "--compare off,fastest");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("unknown mode \"fastest\""));
}

}  // namespace
}  // namespace nb::cli
