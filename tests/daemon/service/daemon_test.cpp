#include "daemon/service/daemon.hpp"

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <thread>

#include "tests/daemon/service/daemon_harness.hpp"

namespace nb::service {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using testing::DaemonHarness;
using testing::DaemonTest;
using testing::error_code;
using testing::ready_decision;
using testing::SocketClient;
using testing::TempTree;

struct CommandCase {
  const char* cmd;
  json args;
  const char* expected_error;  // "" when it must succeed
};

TEST_F(DaemonTest, EveryCommandAnswersOverTheSocket) {
  tree.make_dir("cg/pods/a");
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  ASSERT_TRUE(client.connected());
  const std::vector<CommandCase> cases = {
      {"list_commands", json::object(), ""},
      {"status", json::object(), ""},
      {"plan", json::object(), ""},
      {"plan", {{"explain", true}}, ""},
      {"plan", {{"explain", "yes"}}, "bad_request"},
      {"history", {{"limit", 5}}, ""},
      {"history", {{"limit", -1}}, "bad_request"},
      {"containers", json::object(), ""},
      {"topology", json::object(), ""},
      {"snapshot", json::object(), ""},
      {"metrics", json::object(), ""},
      {"pause", json::object(), ""},
      {"resume", json::object(), ""},
      {"reconcile", json::object(), ""},
      {"dry_run", {{"enabled", true}}, ""},
      {"dry_run", {{"enabled", false}}, ""},
      {"dry_run", json::object(), "bad_request"},
      {"cancel", json::object(), "failed"},
      {"config", json::object(), ""},
      {"reload", json::object(), "failed"},  // started without a config file
      {"migrate", {{"cgroup", "pods/a"}, {"from", 1}, {"to", "0"}, {"dry_run", true}}, ""},
      {"no_such_command", json::object(), "unknown_command"},
  };
  for (const auto& c : cases) {
    auto reply = client.call(c.cmd, c.args);
    ASSERT_TRUE(reply.is_object()) << c.cmd;
    EXPECT_EQ(error_code(reply), c.expected_error)
        << c.cmd << " " << c.args.dump() << " -> " << reply.dump();
    EXPECT_EQ(reply["ok"].get<bool>(), std::string(c.expected_error).empty()) << c.cmd;
    if (std::string(c.cmd) == "migrate") {
      ASSERT_TRUE(daemon.wait_until_idle());
    }
  }
  // The command table lists every command the issue names.
  auto listed = client.call("list_commands")["result"];
  std::vector<std::string> names;
  for (const auto& entry : listed) {
    names.push_back(entry["name"]);
  }
  for (const char* name : {"list_commands", "status", "plan", "history", "containers", "topology",
                           "snapshot", "metrics", "pause", "resume", "reconcile", "dry_run",
                           "migrate", "cancel", "config", "reload", "watch"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

TEST_F(DaemonTest, ReadyDecisionStartsAJobWithThePlanAsBudget) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a", "pods/b"}));
  SocketClient client(daemon.socket());
  EXPECT_EQ(daemon.reconcile(client)["outcome"], "started");
  ASSERT_TRUE(daemon.wait_until_idle());
  EXPECT_EQ(daemon.migrate_calls(), 1);
  {
    std::lock_guard lock(daemon.fakes().mutex);
    ASSERT_EQ(daemon.fakes().last_targets.size(), 2u);
    EXPECT_EQ(daemon.fakes().last_targets[0].cgroup_dir, tree.path("cg/pods/a"));
    EXPECT_EQ(daemon.fakes().last_options.budget, 512 * kMiB);
    EXPECT_EQ(daemon.fakes().last_options.source_node, 1);
    EXPECT_FALSE(daemon.fakes().last_options.dry_run);
  }
  auto history = client.call("history")["result"]["rounds"];
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0]["outcome"], "done");
  EXPECT_EQ(history[0]["migrated"], true);
  EXPECT_EQ(history[0]["moved_bytes"], 512 * kMiB);
  EXPECT_EQ(history[0]["report"]["threshold_met"], true);
  auto metrics = client.call("metrics")["result"]["text"].get<std::string>();
  EXPECT_NE(metrics.find("numabalancer_migrated_bytes_total{source=\"1\",dest=\"0\"} 536870912"),
            std::string::npos)
      << metrics;
}

TEST_F(DaemonTest, DecisionWhileAJobRunsIsDeferredAndVisible) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  ASSERT_TRUE(daemon.start_a_held_job());
  SocketClient client(daemon.socket());
  auto second = daemon.reconcile(client);
  EXPECT_EQ(second["outcome"], "deferred");
  auto status = client.call("status")["result"];
  ASSERT_TRUE(status["job"].is_object());
  EXPECT_EQ(status["deferred"]["number"], second["number"]);
  daemon.release_jobs();
  ASSERT_TRUE(daemon.wait_until_idle());
  EXPECT_EQ(daemon.migrate_calls(), 1);
  auto history = client.call("history")["result"]["rounds"];
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[1]["outcome"], "deferred");
}

TEST_F(DaemonTest, DryRunAndPauseMoveNothing) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a"}));
  SocketClient client(daemon.socket());
  ASSERT_TRUE(client.call("dry_run", {{"enabled", true}})["ok"].get<bool>());
  EXPECT_EQ(daemon.reconcile(client)["outcome"], "dry_run");
  EXPECT_EQ(client.call("status")["result"]["dry_run"], true);
  ASSERT_TRUE(client.call("dry_run", {{"enabled", false}})["ok"].get<bool>());
  ASSERT_TRUE(client.call("pause")["ok"].get<bool>());
  EXPECT_EQ(daemon.reconcile(client)["outcome"], "paused");
  EXPECT_EQ(client.call("status")["result"]["state"], "paused");
  EXPECT_EQ(daemon.migrate_calls(), 0);
  ASSERT_TRUE(client.call("resume")["ok"].get<bool>());
  EXPECT_EQ(daemon.reconcile(client)["outcome"], "started");
  ASSERT_TRUE(daemon.wait_until_idle());
  EXPECT_EQ(daemon.migrate_calls(), 1);
}

TEST_F(DaemonTest, DryRunFromConfigMovesNothing) {
  config::Config config;
  config.daemon.dry_run = true;
  DaemonHarness daemon(tree, config);
  daemon.set_decision(ready_decision({"pods/a"}));
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  EXPECT_EQ(client.call("status")["result"]["last_round"]["outcome"], "dry_run");
  EXPECT_EQ(daemon.reconcile(client)["outcome"], "dry_run");
  EXPECT_EQ(daemon.migrate_calls(), 0);
}

TEST_F(DaemonTest, ManualMigrateChecksItsInputAndCanBeCancelled) {
  tree.make_dir("cg/pods/a");
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  const std::vector<CommandCase> refused = {
      {"migrate", {{"from", 1}, {"to", {0}}}, "bad_request"},
      {"migrate", {{"cgroup", "pods/a"}, {"pid", 1}, {"from", 1}, {"to", {0}}}, "bad_request"},
      {"migrate", {{"cgroup", "pods/missing"}, {"from", 1}, {"to", {0}}}, "bad_request"},
      {"migrate", {{"cgroup", "pods/a"}, {"from", 1}, {"to", {7}}}, "bad_request"},
      {"migrate", {{"cgroup", "pods/a"}, {"from", 9}, {"to", {0}}}, "bad_request"},
      {"migrate", {{"cgroup", "pods/a"}, {"from", 1}, {"to", {1}}}, "bad_request"},
      {"migrate", {{"cgroup", "pods/a"}, {"from", 1}, {"to", "0,x"}}, "bad_request"},
      {"migrate",
       {{"cgroup", "pods/a"}, {"from", 1}, {"to", {0}}, {"max_bytes", "12GB"}},
       "bad_request"},
      {"migrate", {{"pid", 999999999}, {"from", 1}, {"to", {0}}}, "bad_request"},
  };
  for (const auto& c : refused) {
    auto reply = client.call(c.cmd, c.args);
    EXPECT_EQ(error_code(reply), c.expected_error) << c.args.dump() << " -> " << reply.dump();
  }
  EXPECT_EQ(daemon.migrate_calls(), 0);

  daemon.hold_jobs();
  auto started = client.call(
      "migrate",
      {{"cgroup", "pods/a"}, {"from", 1}, {"to", "0"}, {"max_bytes", "64MiB"}, {"rate", 100}});
  ASSERT_TRUE(started["ok"].get<bool>()) << started.dump();
  ASSERT_TRUE(daemon.wait_for_job_entered());
  {
    std::lock_guard lock(daemon.fakes().mutex);
    EXPECT_EQ(daemon.fakes().last_options.budget, 64 * kMiB);
    EXPECT_EQ(daemon.fakes().last_options.rate_limit_mib_per_s, 100);
  }
  auto busy = client.call("migrate", {{"cgroup", "pods/a"}, {"from", 1}, {"to", {0}}});
  EXPECT_EQ(error_code(busy), "busy");
  ASSERT_TRUE(client.call("cancel")["ok"].get<bool>());
  ASSERT_TRUE(daemon.wait_until_idle());
  auto history = client.call("history")["result"]["rounds"];
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0]["trigger"], "manual");
  EXPECT_EQ(history[0]["outcome"], "cancelled");
}

TEST_F(DaemonTest, EvictedContainerIsLeftOutOfTheRoundsMigration) {
  tree.make_file("cg/pods/a/cgroup.freeze", "0");
  tree.make_dir("cg/pods/b");
  config::Config config;
  config.eviction.action = "freeze";
  DaemonHarness daemon(tree, config);
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a", "pods/b"}, {"pods/a"}));
  SocketClient watcher(daemon.socket());
  ASSERT_TRUE(watcher.call("watch")["ok"].get<bool>());
  SocketClient client(daemon.socket());
  ASSERT_TRUE(daemon.reconcile(client).is_object());
  ASSERT_TRUE(daemon.wait_until_idle());
  EXPECT_EQ(testing::read_file(tree.path("cg/pods/a/cgroup.freeze")), "1");
  {
    std::lock_guard lock(daemon.fakes().mutex);
    ASSERT_EQ(daemon.fakes().last_targets.size(), 1u);
    EXPECT_EQ(daemon.fakes().last_targets[0].container_id, "pods/b");
    EXPECT_EQ(daemon.fakes().last_options.budget, 256 * kMiB);
  }
  auto history = client.call("history")["result"]["rounds"];
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0]["evicted"], json::array({"pods/a"}));
  bool saw_eviction = false;
  while (auto line = watcher.read_line(2s)) {
    auto event = json::parse(*line);
    if (event["event"] == "eviction") {
      saw_eviction = true;
      EXPECT_EQ(event["data"]["container"], "pods/a");
      EXPECT_EQ(event["data"]["ok"], true);
    }
    if (event["event"] == "job_done") {
      break;
    }
  }
  EXPECT_TRUE(saw_eviction);
}

TEST_F(DaemonTest, WatchStreamsRoundAndJobEvents) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a"}));
  SocketClient watcher(daemon.socket());
  auto reply = watcher.call("watch");
  ASSERT_TRUE(reply["ok"].get<bool>());
  SocketClient client(daemon.socket());
  ASSERT_TRUE(daemon.reconcile(client).is_object());
  std::vector<std::string> kinds;
  while (auto line = watcher.read_line(3s)) {
    auto event = json::parse(*line);
    kinds.push_back(event["event"]);
    EXPECT_FALSE(event["time"].get<std::string>().empty());
    if (kinds.back() == "job_done") {
      break;
    }
  }
  ASSERT_FALSE(kinds.empty());
  EXPECT_EQ(kinds.front(), "job_started");
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "round"), kinds.end());
  EXPECT_EQ(kinds.back(), "job_done");
}

TEST_F(DaemonTest, FailedScanIsARecordedRoundNotACrash) {
  DaemonHarness daemon(tree);
  {
    std::lock_guard lock(daemon.fakes().mutex);
    daemon.fakes().scan_fails = true;
  }
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  auto status = client.call("status")["result"];
  EXPECT_EQ(status["last_round"]["outcome"], "failed");
  EXPECT_NE(status["scan_error"].get<std::string>().find("/sys/devices/system/node"),
            std::string::npos);
  EXPECT_EQ(error_code(client.call("snapshot")), "unavailable");
}

std::string config_text(const TempTree& tree, const std::string& extra) {
  return "[daemon]\nstate_dir = \"" + tree.path("state").string() + "\"\nlock_file = \"" +
         tree.path("run/numabalancerd.lock").string() + "\"\ninterval = \"1h\"\n" + extra +
         "\n[admin]\nsocket = \"" + tree.path("run/admin.sock").string() +
         "\"\nadmin_group = \"\"\n";
}

TEST_F(DaemonTest, ReloadAppliesAGoodConfigAndRejectsABadOne) {
  auto file = tree.make_file("config.toml", config_text(tree, ""));
  DaemonHarness daemon(tree);
  daemon.options().config_file = file;
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());

  tree.make_file("config.toml", config_text(tree, "dry_run = true"));
  auto good = client.call("reload");
  ASSERT_EQ(good["ok"], true) << good.dump();
  EXPECT_EQ(client.call("config")["result"]["daemon"]["dry_run"], true);
  EXPECT_EQ(client.call("status")["result"]["dry_run"], true);

  tree.make_file("config.toml", config_text(tree, "dry_run = true\nbogus_key = 1"));
  auto bad = client.call("reload");
  EXPECT_EQ(error_code(bad), "failed");
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("bogus_key"), std::string::npos)
      << bad.dump();
  EXPECT_EQ(client.call("config")["result"]["daemon"]["dry_run"], true) << "the old config stays";

  // SIGHUP takes the same path; the daemon keeps serving either way.
  tree.make_file("config.toml", config_text(tree, "dry_run = false"));
  ASSERT_EQ(::kill(::getpid(), SIGHUP), 0);
  bool applied = false;
  for (int i = 0; i < 200 && !applied; ++i) {
    applied = client.call("config")["result"]["daemon"]["dry_run"] == false;
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(applied);
}

}  // namespace
}  // namespace nb::service
