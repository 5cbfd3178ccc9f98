// Round effects through the running daemon: a migrating round keeps the latencies it was planned
// from, the first round after its job finished and effect_delay passed measures what it did, and
// history, the policy's history, the state file and the metrics all show the same effect.

#include <gtest/gtest.h>

#include <fstream>

#include "daemon/service/daemon.hpp"
#include "tests/daemon/service/daemon_harness.hpp"

namespace nb::service {
namespace {

using nlohmann::json;
using testing::DaemonHarness;
using testing::ready_decision;
using testing::SocketClient;
using testing::TempTree;

config::Config measured_after(std::chrono::seconds delay) {
  config::Config config;
  config.policy.effect_delay = delay;
  return config;
}

json rounds_of(SocketClient& client) {
  json reply = client.call("history");
  return reply.is_object() ? reply["result"]["rounds"] : json();
}

std::string metrics_text(SocketClient& client) {
  json reply = client.call("metrics");
  return reply.is_object() ? reply["result"]["text"].get<std::string>() : std::string();
}

// Round 1 migrates off node 1 (read at 95 ns) to node 0 (60 ns) and its job finishes.
void migrate_in_round_one(DaemonHarness& daemon) {
  daemon.set_decision(ready_decision({"pods/a"}));
  ASSERT_TRUE(daemon.start().ok());
  ASSERT_TRUE(daemon.wait_until_idle());
  daemon.set_decision(core::Decision{});
}

TEST(DaemonEffects, TheNextRoundMeasuresWhatAFinishedJobDid) {
  TempTree tree;
  DaemonHarness daemon(tree, measured_after(std::chrono::seconds(0)));
  migrate_in_round_one(daemon);
  SocketClient client(daemon.socket());
  EXPECT_EQ(rounds_of(client)[0]["effect_pending"], true);
  EXPECT_EQ(rounds_of(client)[0]["latencies_before"], json::parse(R"({"0": 60.0, "1": 95.0})"));

  daemon.set_read_latency(1, 70);
  ASSERT_TRUE(daemon.reconcile(client).is_object());

  json first = rounds_of(client)[0];
  ASSERT_TRUE(first["effect"].is_object()) << first.dump();
  EXPECT_EQ(first["effect"]["improved"], true);
  EXPECT_EQ(first["effect"]["hot_before"], 95.0);
  EXPECT_EQ(first["effect"]["hot_after"], 70.0);
  EXPECT_EQ(first["effect"]["gap_before"], 35.0);
  EXPECT_EQ(first["effect"]["gap_after"], 10.0);
  EXPECT_EQ(first["effect"]["source_latency_after"], 70.0);
  EXPECT_FALSE(first.contains("effect_pending"));
  EXPECT_NE(metrics_text(client).find("numabalancer_round_effects_total{result=\"improved\"} 1\n"),
            std::string::npos);

  // The policy decided round 2 on a history that already carried round 1's effect.
  std::lock_guard lock(daemon.fakes().mutex);
  ASSERT_EQ(daemon.fakes().last_history.size(), 1u);
  ASSERT_TRUE(daemon.fakes().last_history.front().effect.has_value());
  EXPECT_TRUE(daemon.fakes().last_history.front().effect->improved);
}

TEST(DaemonEffects, AnEffectIsNotMeasuredBeforeEffectDelayHasPassed) {
  TempTree tree;
  DaemonHarness daemon(tree, measured_after(std::chrono::hours(1)));
  migrate_in_round_one(daemon);
  SocketClient client(daemon.socket());
  daemon.set_read_latency(1, 70);
  ASSERT_TRUE(daemon.reconcile(client).is_object());

  json first = rounds_of(client)[0];
  EXPECT_EQ(first["effect_pending"], true);
  EXPECT_FALSE(first.contains("effect"));
  EXPECT_NE(metrics_text(client).find("numabalancer_round_effects_total{result=\"improved\"} 0\n"),
            std::string::npos);
}

TEST(DaemonEffects, ALatencyThatDidNotFallIsANonImprovingRoundInTheStateFile) {
  TempTree tree;
  DaemonHarness daemon(tree, measured_after(std::chrono::seconds(0)));
  migrate_in_round_one(daemon);
  SocketClient client(daemon.socket());
  ASSERT_TRUE(daemon.reconcile(client).is_object());  // both nodes read as before

  EXPECT_EQ(rounds_of(client)[0]["effect"]["improved"], false);
  EXPECT_NE(
      metrics_text(client).find("numabalancer_round_effects_total{result=\"not_improved\"} 1\n"),
      std::string::npos);
  daemon.stop();

  auto saved = codec::load_state(tree.path("state/state.json"), TimePoint{});
  ASSERT_FALSE(saved.set_aside.has_value());
  ASSERT_FALSE(saved.contents.rounds.empty());
  EXPECT_EQ(codec::to_json(saved.contents.rounds[0])["effect"]["improved"], false);
}

TEST(DaemonEffects, ARoundWhoseSourceLostItsReadingHasAnUnknownEffectWithTheReason) {
  TempTree tree;
  DaemonHarness daemon(tree, measured_after(std::chrono::seconds(0)));
  migrate_in_round_one(daemon);
  SocketClient client(daemon.socket());
  daemon.set_read_latency(1, 0);  // the provider gave no reading for node 1
  ASSERT_TRUE(daemon.reconcile(client).is_object());

  json first = rounds_of(client)[0];
  EXPECT_TRUE(first["effect"].is_null());
  EXPECT_EQ(first["effect_reason"], "the snapshot after the round has no read latency for node 1");
  EXPECT_NE(metrics_text(client).find("numabalancer_round_effects_total{result=\"unknown\"} 1\n"),
            std::string::npos);
}

}  // namespace
}  // namespace nb::service
