// What the daemon keeps of a job's migration report: the full report (per container, per pid)
// for the newest rounds in `history`, `status` and the state file, a summary for older ones.

#include <gtest/gtest.h>

#include "daemon/codec/report_json.hpp"
#include "daemon/service/daemon.hpp"
#include "tests/daemon/service/daemon_harness.hpp"

namespace nb::service {
namespace {

using nlohmann::json;
using testing::DaemonHarness;
using testing::ready_decision;
using testing::SocketClient;
using testing::TempTree;

class DaemonReportTest : public ::testing::Test {
 protected:
  TempTree tree;
};

TEST_F(DaemonReportTest, FinishedJobShowsItsFullReportInHistoryStatusAndStateFile) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a"}));
  SocketClient client(daemon.socket());
  auto round = daemon.reconcile(client);
  ASSERT_EQ(round["outcome"], "started");
  ASSERT_TRUE(daemon.wait_until_idle());

  auto history = client.call("history")["result"]["rounds"];
  ASSERT_EQ(history.size(), 1u);
  const json& full = history[0]["full_report"];
  ASSERT_TRUE(full.is_object()) << history[0].dump();
  ASSERT_EQ(full["containers"].size(), 1u);
  EXPECT_EQ(full["containers"][0]["id"], "pods/a");
  ASSERT_EQ(full["containers"][0]["processes"].size(), 1u);
  EXPECT_EQ(full["containers"][0]["processes"][0]["pid"], 1234);
  EXPECT_EQ(full["containers"][0]["processes"][0]["bytes_moved_to"]["0"], 256 * kMiB);
  EXPECT_EQ(history[0]["report"]["bytes_moved"], 256 * kMiB) << "the summary stays";

  auto last_job = client.call("status")["result"]["last_job"];
  ASSERT_TRUE(last_job.is_object());
  EXPECT_EQ(last_job["kind"], "round");
  EXPECT_EQ(last_job["round"]["number"], round["number"]);
  EXPECT_EQ(last_job["round"]["outcome"], "done");
  EXPECT_EQ(last_job["round"]["full_report"], full);

  auto saved = codec::load_state(tree.path("state/state.json"), TimePoint{});
  ASSERT_EQ(saved.contents.rounds.size(), 1u);
  ASSERT_TRUE(saved.contents.rounds[0].full_report.has_value());
  EXPECT_EQ(codec::to_json(*saved.contents.rounds[0].full_report), full);
}

TEST_F(DaemonReportTest, OnlyTheNewestRoundsKeepTheirFullReport) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a"}));
  SocketClient client(daemon.socket());
  constexpr int kJobs = 8;
  for (int i = 0; i < kJobs; ++i) {
    ASSERT_EQ(daemon.reconcile(client)["outcome"], "started") << "job " << i;
    ASSERT_TRUE(daemon.wait_until_idle());
  }
  auto history = client.call("history")["result"]["rounds"];
  ASSERT_EQ(history.size(), static_cast<std::size_t>(kJobs));
  std::vector<bool> full;
  for (const auto& round : history) {
    EXPECT_TRUE(round["report"].is_object()) << "every round keeps its summary";
    full.push_back(round.contains("full_report"));
  }
  EXPECT_EQ(full, (std::vector<bool>{false, false, false, true, true, true, true, true}));

  auto saved = codec::load_state(tree.path("state/state.json"), TimePoint{});
  ASSERT_EQ(saved.contents.rounds.size(), static_cast<std::size_t>(kJobs));
  EXPECT_FALSE(saved.contents.rounds[2].full_report.has_value());
  EXPECT_TRUE(saved.contents.rounds[3].full_report.has_value());
}

TEST_F(DaemonReportTest, ManualJobKeepsItsFullReportToo) {
  tree.make_dir("cg/pods/a");
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  auto started =
      client.call("migrate", {{"cgroup", "pods/a"}, {"from", 1}, {"to", {0}}, {"max_bytes", 4096}});
  ASSERT_EQ(started["ok"], true) << started.dump();
  ASSERT_TRUE(daemon.wait_until_idle());
  auto last_job = client.call("status")["result"]["last_job"];
  EXPECT_EQ(last_job["kind"], "manual");
  EXPECT_EQ(last_job["id"], started["result"]["job"]);
  EXPECT_EQ(last_job["round"]["full_report"]["containers"][0]["processes"][0]["pid"], 1234);
}

}  // namespace
}  // namespace nb::service
