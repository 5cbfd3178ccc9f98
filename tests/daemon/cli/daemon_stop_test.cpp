// SIGTERM ends numabalancerd within 5 s whatever it is doing, and a host scan that does not come
// back fails its round at [daemon] scan_timeout instead of stopping rounds for good. The slow scan
// here is the probe's first round stretched far past its 30 s wait (a huge loads_per_sample).
// Idle and mid-job stops are covered by DaemonEndToEnd and the harness's StopDuringAJob test.

#include <gtest/gtest.h>
#include <signal.h>

#include <regex>
#include <thread>

#include "tests/daemon/service/running_daemon.hpp"

namespace nb::testing {
namespace {

using namespace std::chrono_literals;

std::string probing_config(const TempTree& tree, const std::string& daemon_extra) {
  std::string text = e2e_config(tree, daemon_extra);
  text = std::regex_replace(text, std::regex("latency = \"file\""), "latency = \"probe\"");
  return text + "\n[metrics.probe]\nloads_per_sample = 2000000000\n";
}

std::unique_ptr<ChildProcess> start_probing_daemon(const TempTree& tree,
                                                   const std::string& daemon_extra) {
  auto config = tree.make_file("config.toml", probing_config(tree, daemon_extra));
  return std::make_unique<ChildProcess>(
      std::vector<std::string>{binary("numabalancerd"), "--config", config.string()}, tree.root());
}

TEST(DaemonStop, SigtermDuringTheFirstScanExitsWithinFiveSeconds) {
  TempTree tree;
  auto daemon = start_probing_daemon(tree, "");
  ASSERT_TRUE(wait_for_socket(tree.path("run/admin.sock").string())) << daemon->err();
  SocketClient client(tree.path("run/admin.sock").string());
  auto status = client.call("status");
  ASSERT_TRUE(status["result"]["round_in_progress"].is_object())
      << "the probe's first round should still be running: " << status.dump();

  auto begin = std::chrono::steady_clock::now();
  daemon->signal(SIGTERM);
  EXPECT_EQ(daemon->exit_code(10s), 0) << daemon->err();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 5s);
}

TEST(DaemonStop, AScanPastScanTimeoutFailsItsRoundAndTheDaemonServes) {
  TempTree tree;
  auto daemon = start_probing_daemon(tree, "scan_timeout = \"1s\"\n");
  const std::string socket = tree.path("run/admin.sock").string();
  ASSERT_TRUE(wait_for_socket(socket)) << daemon->err();
  SocketClient client(socket);
  // The first round fails at the deadline; rounds after it fail at once while the probe is stuck.
  std::string history;
  for (int i = 0; i < 100 && history.find("still running") == std::string::npos; ++i) {
    std::this_thread::sleep_for(50ms);
    history = client.call("history").dump();
  }
  EXPECT_NE(history.find("the host scan did not finish within 1s ([daemon] scan_timeout)"),
            std::string::npos)
      << history;
  EXPECT_NE(history.find("the previous host scan is still running"), std::string::npos) << history;
  EXPECT_EQ(client.call("status")["result"]["last_round"]["status"], "failed");

  auto begin = std::chrono::steady_clock::now();
  daemon->signal(SIGTERM);
  EXPECT_EQ(daemon->exit_code(10s), 0) << daemon->err();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 5s);
}

}  // namespace
}  // namespace nb::testing
