// The host scan runs on a worker thread: a slow scan must not hold the admin socket, and rounds
// never overlap.

#include <gtest/gtest.h>

#include "daemon/service/daemon.hpp"
#include "tests/daemon/service/daemon_harness.hpp"

namespace nb::service {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using testing::DaemonHarness;
using testing::ready_decision;
using testing::SocketClient;
using testing::TempTree;

class DaemonScanTest : public ::testing::Test {
 protected:
  TempTree tree;
};

TEST_F(DaemonScanTest, StatusAnswersWhileASlowScanRuns) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a"}));
  daemon.hold_scans();
  SocketClient client(daemon.socket());

  // The held scan never ends on its own: had it run on the loop thread, nothing below would get
  // an answer.
  auto requested = client.call("reconcile");
  ASSERT_TRUE(requested.is_object()) << "reconcile waited for the scan";
  ASSERT_EQ(requested["ok"], true) << requested.dump();
  EXPECT_EQ(requested["result"]["pending"], true);
  EXPECT_EQ(requested["result"]["round"]["outcome"], "pending");
  auto number = requested["result"]["round"]["number"];
  ASSERT_TRUE(daemon.wait_for_scan_entered());

  auto begin = std::chrono::steady_clock::now();
  auto status = client.call("status");
  auto took = std::chrono::steady_clock::now() - begin;
  ASSERT_TRUE(status.is_object()) << "status waited for the scan";
  EXPECT_EQ(status["result"]["round_in_progress"]["number"], number);
  EXPECT_EQ(status["result"]["round_in_progress"]["trigger"], "reconcile");
  std::cout << "[ figures  ] status during a held scan: "
            << std::chrono::duration_cast<std::chrono::microseconds>(took).count() << " us\n";
  // Generous on purpose (ASan, a loaded 2-core machine): the point is that it answers at all.
  EXPECT_LT(took, 1s);
  EXPECT_EQ(client.call("history")["ok"], true);
  EXPECT_EQ(daemon.migrate_calls(), 0);

  daemon.release_scans();
  bool finished = false;
  for (int i = 0; i < 500 && !finished; ++i) {
    auto last = client.call("status")["result"]["last_round"];
    finished = last.is_object() && last["number"] == number;
    if (!finished) {
      std::this_thread::sleep_for(5ms);
    }
  }
  ASSERT_TRUE(finished);
  EXPECT_TRUE(client.call("status")["result"]["round_in_progress"].is_null());
  ASSERT_TRUE(daemon.wait_until_idle());
  EXPECT_EQ(daemon.migrate_calls(), 1) << "the round acted once its scan came back";
}

TEST_F(DaemonScanTest, ReconcileWhileAScanRunsJoinsThatRound) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  ASSERT_EQ(daemon.scan_calls(), 1) << "the first round reads the host during start";
  daemon.hold_scans();
  SocketClient client(daemon.socket());
  auto first = client.call("reconcile")["result"];
  ASSERT_TRUE(daemon.wait_for_scan_entered());
  auto second = client.call("reconcile")["result"];
  EXPECT_EQ(first["joined"], false);
  EXPECT_EQ(second["joined"], true);
  EXPECT_EQ(second["round"]["number"], first["round"]["number"]);
  daemon.release_scans();
  for (int i = 0; i < 500; ++i) {
    if (client.call("status")["result"]["last_round"]["number"] == first["round"]["number"]) {
      break;
    }
    std::this_thread::sleep_for(5ms);
  }
  auto third = daemon.reconcile(client);
  ASSERT_TRUE(third.is_object());
  EXPECT_GT(third["number"].get<int>(), first["round"]["number"].get<int>());
  EXPECT_EQ(daemon.scan_calls(), 3) << "one scan for the joined requests, one for the third";
}

TEST_F(DaemonScanTest, TimerRoundsDoNotPileUpBehindASlowScan) {
  DaemonHarness daemon(tree);
  daemon.config().daemon.interval = 10ms;
  ASSERT_TRUE(daemon.start().ok());
  daemon.hold_scans();
  ASSERT_TRUE(daemon.wait_for_scan_entered());
  int while_held = daemon.scan_calls();
  // Many intervals pass while the scan is held; none of them starts another scan.
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(daemon.scan_calls(), while_held);
  SocketClient client(daemon.socket());
  EXPECT_EQ(client.call("status")["result"]["round_in_progress"]["trigger"], "timer");
  daemon.release_scans();
  auto deadline = std::chrono::steady_clock::now() + 5s;
  while (daemon.scan_calls() <= while_held && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_GT(daemon.scan_calls(), while_held) << "rounds go on once the scan returns";
}

TEST_F(DaemonScanTest, StopWhileAScanRunsExitsWithoutWaitingForIt) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a"}));
  daemon.hold_scans();
  {
    SocketClient client(daemon.socket());
    ASSERT_EQ(client.call("reconcile")["ok"], true);
  }
  ASSERT_TRUE(daemon.wait_for_scan_entered());
  daemon.request_stop();
  ASSERT_TRUE(daemon.join(5s));
  daemon.release_scans();
  daemon.stop();
  EXPECT_EQ(daemon.migrate_calls(), 0);
}

TEST_F(DaemonScanTest, AScanThatThrowsIsAFailedRound) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  {
    std::lock_guard lock(daemon.fakes().mutex);
    daemon.fakes().scan_throws = true;
  }
  SocketClient client(daemon.socket());
  auto round = daemon.reconcile(client);
  ASSERT_TRUE(round.is_object());
  EXPECT_EQ(round["outcome"], "failed");
  EXPECT_NE(round["reason"].get<std::string>().find("threw"), std::string::npos) << round.dump();
  EXPECT_EQ(client.call("status")["ok"], true);
}

// "no node has a bandwidth" is the policy's view; the operator needs the provider's.
TEST_F(DaemonScanTest, PlanExplainCarriesTheProvidersReasonForAMetricWithoutData) {
  DaemonHarness daemon(tree);
  daemon.fakes().real_policy = true;
  daemon.fakes().bandwidth_reason =
      "file: /run/nb.prom: no numabalancer_node_bandwidth_gbps series";
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  auto reply = client.call("plan", {{"explain", true}});
  ASSERT_EQ(reply["ok"], true) << reply.dump();
  const json& result = reply["result"];
  EXPECT_EQ(result["decision"]["status"], "no_metrics");
  const std::string text = result["text"];
  EXPECT_NE(text.find("Why:\n  bandwidth unavailable: file: /run/nb.prom: no "
                      "numabalancer_node_bandwidth_gbps series\n  result: no_metrics"),
            std::string::npos)
      << text;
  EXPECT_EQ(
      result["decision"]["explanation"][0],
      "bandwidth unavailable: file: /run/nb.prom: no numabalancer_node_bandwidth_gbps series");
}

}  // namespace
}  // namespace nb::service
