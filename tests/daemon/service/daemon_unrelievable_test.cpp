// Pressure the policy cannot relieve (no destination node) fails every round. Before, such a round
// counted as rounds_total{outcome="none"}, logged nothing and left `history` empty, while `status`
// said "failed": now it is counted, logged and kept as what it is.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/wire/audit_log_reader.hpp"
#include "tests/daemon/service/daemon_harness.hpp"
#include "tests/support/captured_log.hpp"

namespace nb::service {
namespace {

using nb::testing::CapturedLog;
using nb::testing::DaemonHarness;
using nb::testing::ready_decision;
using nb::testing::SocketClient;
using nb::testing::TempTree;
using nlohmann::json;
using ::testing::HasSubstr;

constexpr int kRounds = 5;

// What core::decide() says when the hot node has nowhere to go.
core::Decision no_destination() {
  core::Decision decision;
  decision.status = core::DecisionStatus::failed;
  decision.level = core::PressureLevel::force;
  decision.source_node = 1;
  decision.reason = "no destination node";
  return decision;
}

class DaemonUnrelievableTest : public ::testing::Test {
 protected:
  DaemonUnrelievableTest() : daemon(tree) {
    audit_log = tree.make_dir("audit") / "audit.jsonl";
    daemon.config().export_.audit_log = audit_log.string();
  }

  // Runs kRounds rounds under the unrelievable decision; each must come out failed.
  void run_failing_rounds(SocketClient& client) {
    daemon.set_decision(no_destination());
    for (int i = 0; i < kRounds; ++i) {
      auto round = daemon.reconcile(client);
      ASSERT_EQ(round["status"], "failed") << round.dump();
      ASSERT_EQ(round["outcome"], "failed") << round.dump();
    }
  }

  TempTree tree;
  DaemonHarness daemon;
  std::filesystem::path audit_log;
};

TEST_F(DaemonUnrelievableTest, CountedUnderTheStatusThatStatusShows) {
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  run_failing_rounds(client);

  auto last = client.call("status")["result"]["last_round"];
  EXPECT_EQ(last["status"], "failed");
  std::string text = client.call("metrics")["result"]["text"];
  EXPECT_THAT(text, HasSubstr("numabalancer_rounds_total{outcome=\"failed\"} " +
                              std::to_string(kRounds) + "\n"));
  EXPECT_THAT(text, HasSubstr("numabalancer_rounds_total{outcome=\"none\"} 1\n"))
      << "only the first, idle round";
}

TEST_F(DaemonUnrelievableTest, LoggedOnceWhenItStartsAndOnceWhenItEnds) {
  CapturedLog log;
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  run_failing_rounds(client);
  EXPECT_EQ(log.count("relieving pressure failed: no destination node"), 1u);
  EXPECT_EQ(log.count("relieving pressure works again"), 0u);

  daemon.set_decision(ready_decision({"pods/a"}));
  ASSERT_EQ(daemon.reconcile(client)["outcome"], "started");
  ASSERT_TRUE(daemon.wait_until_idle());
  EXPECT_EQ(log.count("relieving pressure works again"), 1u);
  EXPECT_EQ(log.count("relieving pressure failed"), 1u);
}

TEST_F(DaemonUnrelievableTest, KeptInHistoryAsNotActedWithTheReason) {
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  run_failing_rounds(client);

  auto rounds = client.call("history")["result"]["rounds"];
  ASSERT_EQ(rounds.size(), static_cast<std::size_t>(kRounds)) << rounds.dump();
  for (const auto& round : rounds) {
    EXPECT_EQ(round["outcome"], "failed");
    EXPECT_EQ(round["acted"], false);
    EXPECT_THAT(round["reason"].get<std::string>(), HasSubstr("no destination node"));
  }

  auto since = client.call("history", {{"since", "1h"}});
  ASSERT_EQ(since["ok"], true) << since.dump();
  auto entries = since["result"]["entries"];
  ASSERT_EQ(entries.size(), static_cast<std::size_t>(kRounds)) << entries.dump();
  for (const auto& entry : entries) {
    EXPECT_EQ(entry["kind"], "round");
    EXPECT_EQ(entry["outcome"], "failed");
    EXPECT_EQ(entry["acted"], false);
    EXPECT_EQ(entry["decision"]["reason"], "no destination node");
  }
}

}  // namespace
}  // namespace nb::service
