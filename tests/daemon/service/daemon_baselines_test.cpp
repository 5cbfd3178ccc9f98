// Baselines through the running daemon: learned from its rounds, seen by the policy and the admin
// commands, named in a calibrating round's reason, and kept across a restart.

#include <gtest/gtest.h>

#include "daemon/service/daemon.hpp"
#include "tests/daemon/service/daemon_harness.hpp"

namespace nb::service {
namespace {

using nlohmann::json;
using testing::DaemonHarness;
using testing::SocketClient;
using testing::TempTree;

config::Config learning_after(int min_samples) {
  config::Config config;
  config.metrics.baseline.min_samples = min_samples;
  return config;
}

json result_of(SocketClient& client, const std::string& command) {
  json reply = client.call(command);
  return reply.is_object() ? reply["result"] : json();
}

TEST(DaemonBaselines, RoundsTeachBaselinesThatTheSnapshotAndStatusShow) {
  TempTree tree;
  DaemonHarness daemon(tree, learning_after(2));
  ASSERT_TRUE(daemon.start().ok());  // round 1
  SocketClient client(daemon.socket());
  ASSERT_TRUE(daemon.reconcile(client).is_object());  // round 2

  // The fake host reads node 0 at 60 ns and node 1 at 95 ns every round.
  json status = result_of(client, "status");
  EXPECT_EQ(status["baselines"], json::parse(R"([
      {"node": 0, "read_latency_ns": 60.0, "source": "learned", "samples": 2, "samples_needed": 0},
      {"node": 1, "read_latency_ns": 95.0, "source": "learned", "samples": 2,
       "samples_needed": 0}])"));
  json snapshot = result_of(client, "snapshot");
  EXPECT_EQ(snapshot["nodes"][0]["baseline_read_latency_ns"], 60.0);
  EXPECT_EQ(snapshot["nodes"][1]["baseline_read_latency_ns"], 95.0);
  json metrics = result_of(client, "metrics");
  EXPECT_NE(
      metrics["text"].get<std::string>().find("numabalancer_node_baseline_read_latency_seconds{"
                                              "node=\"1\",source=\"learned\"} 9.5e-08\n"),
      std::string::npos);
}

TEST(DaemonBaselines, ACalibratingRoundSaysHowManyReadingsAreStillNeeded) {
  TempTree tree;
  DaemonHarness daemon(tree, learning_after(60));
  core::Decision calibrating;
  calibrating.status = core::DecisionStatus::calibrating;
  calibrating.reason = "relative thresholds need a baseline for node 0, 1";
  daemon.set_decision(calibrating);
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  json round = daemon.reconcile(client);
  ASSERT_TRUE(round.is_object());
  EXPECT_EQ(round["status"], "calibrating");
  EXPECT_EQ(round["reason"],
            "relative thresholds need a baseline for node 0, 1; learning: node 0 needs 58 more "
            "readings, node 1 needs 58");
}

// The real policy in relative mode: calibrating while the nodes learn, with the readings still
// needed in the reason; then, with both baselines learned at the idle readings, idle.
TEST(DaemonBaselines, RelativeThresholdsCalibrateUntilEveryNodeHasLearned) {
  TempTree tree;
  auto config = learning_after(3);
  config.policy.strategy = core::Strategy::katalyst;  // thresholds calibrate; equalize does not
  config.policy.threshold_mode = core::ThresholdMode::relative;
  DaemonHarness daemon(tree, config);
  daemon.fakes().real_policy = true;
  daemon.fakes().bandwidth_gbps = 5;
  ASSERT_TRUE(daemon.start().ok());  // round 1: one reading each
  SocketClient client(daemon.socket());
  json second = daemon.reconcile(client);
  ASSERT_TRUE(second.is_object());
  EXPECT_EQ(second["status"], "calibrating");
  const std::string reason = second["reason"];
  EXPECT_NE(reason.find("; learning: node 0 needs 1 more reading, node 1 needs 1"),
            std::string::npos)
      << reason;
  json third = daemon.reconcile(client);
  ASSERT_TRUE(third.is_object());
  EXPECT_EQ(third["status"], "idle") << third["reason"];
  EXPECT_EQ(result_of(client, "plan")["decision"]["thresholds"], "relative");
}

TEST(DaemonBaselines, LearnedBaselinesSurviveARestart) {
  TempTree tree;
  {
    DaemonHarness daemon(tree, learning_after(3));
    ASSERT_TRUE(daemon.start().ok());
    SocketClient client(daemon.socket());
    ASSERT_TRUE(daemon.reconcile(client).is_object());
    EXPECT_TRUE(result_of(client, "status")["baselines"][0]["read_latency_ns"].is_null());
  }  // stopping saves the readings of the two rounds
  auto saved = codec::load_state(tree.path("state/state.json"), TimePoint{});
  ASSERT_TRUE(saved.contents.baselines.has_value());
  EXPECT_EQ(saved.contents.baselines->provider, "file");
  EXPECT_EQ(saved.contents.baselines->readings.at(0).size(), 2u);

  DaemonHarness restarted(tree, learning_after(3));
  ASSERT_TRUE(restarted.start().ok());  // its first round is the third reading
  SocketClient client(restarted.socket());
  json node0 = result_of(client, "status")["baselines"][0];
  EXPECT_EQ(node0["read_latency_ns"], 60.0);
  EXPECT_EQ(node0["source"], "learned");
  EXPECT_EQ(node0["samples"], 3);
}

TEST(DaemonBaselines, AConfiguredBaselineIsThereFromTheFirstRound) {
  TempTree tree;
  auto config = learning_after(60);
  config.metrics.baseline.read_latency_ns = {{1, 141.5}};
  DaemonHarness daemon(tree, config);
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  json topology = result_of(client, "topology");
  EXPECT_EQ(topology["nodes"][1]["baseline"], json::parse(R"({"read_latency_ns": 141.5,
      "source": "configured", "samples": 1, "samples_needed": 0})"));
  EXPECT_EQ(topology["nodes"][0]["baseline"]["samples_needed"], 59);
}

}  // namespace
}  // namespace nb::service
