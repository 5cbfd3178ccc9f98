// numabalancerctl as an operator runs it: every command against the real daemon, exit codes,
// and what it says when it cannot reach the daemon.

#include <gtest/gtest.h>

#include "tests/daemon/service/running_daemon.hpp"

namespace nb::testing {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

std::unique_ptr<ChildProcess> ctl_alone(const TempTree& tree, std::vector<std::string> args) {
  args.insert(args.begin(), binary("numabalancerctl"));
  return std::make_unique<ChildProcess>(args, tree.root());
}

TEST(CtlUsage, HelpListsEveryCommand) {
  TempTree tree;
  auto help = ctl_alone(tree, {"--help"});
  ASSERT_EQ(help->exit_code(), 0);
  for (const char* command : {"list_commands", "status", "plan", "history", "containers",
                              "topology", "snapshot", "metrics", "pause", "resume", "reconcile",
                              "dry_run", "migrate", "cancel", "config", "reload", "watch", "top"}) {
    EXPECT_NE(help->out().find(std::string("  ") + command), std::string::npos) << command;
  }
}

TEST(CtlUsage, CannotConnectExitsTwoNamingTheSocket) {
  TempTree tree;
  auto path = tree.path("nowhere.sock").string();
  auto status = ctl_alone(tree, {"--socket", path, "status"});
  EXPECT_EQ(status->exit_code(), 2);
  EXPECT_NE(status->err().find(path), std::string::npos) << status->err();
}

struct UsageCase {
  const char* name;
  std::vector<std::string> args;
};

class CtlBadUsage : public ::testing::TestWithParam<UsageCase> {};

TEST_P(CtlBadUsage, ExitsTwo) {
  TempTree tree;
  auto run = ctl_alone(tree, GetParam().args);
  EXPECT_EQ(run->exit_code(), 2) << run->err();
  EXPECT_FALSE(run->err().empty());
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CtlBadUsage,
    ::testing::Values(UsageCase{"no_command", {}}, UsageCase{"unknown_command", {"frob"}},
                      UsageCase{"dry_run_needs_on_or_off", {"dry_run", "maybe"}},
                      UsageCase{"migrate_needs_from", {"migrate", "--pid", "1", "--to", "0"}},
                      UsageCase{
                          "migrate_cgroup_and_pid",
                          {"migrate", "--pid", "1", "--cgroup", "x", "--from", "0", "--to", "1"}}),
    [](const auto& info) { return std::string(info.param.name); });

class CtlAgainstDaemon : public ::testing::Test {
 protected:
  void SetUp() override {
    daemon = std::make_unique<RunningDaemon>(tree);
    ASSERT_TRUE(daemon->ready()) << daemon->process().err();
  }

  // Runs numabalancerctl and returns its stdout; the exit code must match.
  std::string run(std::vector<std::string> args, int expected_exit = 0) {
    auto ctl = daemon->ctl(args);
    int code = ctl->exit_code();
    std::string joined;
    for (const auto& arg : args) {
      joined += arg + " ";
    }
    EXPECT_EQ(code, expected_exit) << joined << "\n" << ctl->out() << ctl->err();
    last_err = ctl->err();
    return ctl->out();
  }

  TempTree tree;
  std::unique_ptr<RunningDaemon> daemon;
  std::string last_err;
};

TEST_F(CtlAgainstDaemon, ReadOnlyCommandsPrintTablesAndJson) {
  EXPECT_NE(run({"status"}).find("state:      running"), std::string::npos);
  auto status = json::parse(run({"--json", "status"}));
  EXPECT_EQ(status["state"], "running");
  EXPECT_NE(run({"topology"}).find("95.5 ns"), std::string::npos);
  EXPECT_NE(run({"list_commands"}).find("reconcile"), std::string::npos);
  EXPECT_NE(run({"plan"}).find("status:"), std::string::npos);
  EXPECT_FALSE(run({"plan", "--explain"}).empty());
  // The e2e daemon's pool matches no cgroup: an empty table says why. Its kept rounds, if any,
  // are a table.
  auto history = run({"history", "-n", "3"});
  EXPECT_TRUE(history.find("OUTCOME") != std::string::npos ||
              history.find("no rounds kept yet") != std::string::npos)
      << history;
  EXPECT_NE(run({"containers"}).find("no cgroup matched the pools"), std::string::npos);
  EXPECT_NE(run({"config"}).find("[daemon]"), std::string::npos);
  EXPECT_NE(run({"metrics"}).find("# TYPE numabalancer_node_read_latency_seconds gauge"),
            std::string::npos);
  auto snapshot = json::parse(run({"snapshot"}));
  EXPECT_TRUE(snapshot.contains("nodes")) << snapshot.dump();
}

TEST_F(CtlAgainstDaemon, MutatingCommandsChangeTheDaemon) {
  EXPECT_EQ(run({"pause"}), "paused\n");
  EXPECT_EQ(json::parse(run({"--json", "status"}))["state"], "paused");
  EXPECT_EQ(run({"resume"}), "resumed\n");
  EXPECT_EQ(run({"dry-run", "on"}), "dry-run on\n");
  EXPECT_EQ(json::parse(run({"--json", "status"}))["dry_run"], true);
  EXPECT_EQ(run({"dry_run", "off"}), "dry-run off\n");
  EXPECT_NE(run({"reconcile"}).find("#"), std::string::npos);
  // reconcile waits for the round it asked for and shows what it decided, not that it started.
  auto reconciled = json::parse(run({"--json", "reconcile"}));
  EXPECT_FALSE(reconciled.contains("pending")) << reconciled.dump();
  EXPECT_TRUE(reconciled["round"]["number"].is_number()) << reconciled.dump();
  EXPECT_NE(reconciled["round"]["outcome"], "pending") << reconciled.dump();
  EXPECT_TRUE(reconciled["decision"].is_object()) << reconciled.dump();
  EXPECT_EQ(run({"reload"}), "configuration reloaded\n");
}

TEST_F(CtlAgainstDaemon, FailedCommandsExitOneWithTheDaemonsMessage) {
  run({"cancel"}, 1);
  EXPECT_NE(last_err.find("no migration job is running"), std::string::npos) << last_err;
  tree.make_file("config.toml", e2e_config(tree, "bogus = 1"));
  run({"reload"}, 1);
  EXPECT_NE(last_err.find("bogus"), std::string::npos) << last_err;
}

// The daemon's and numabalancerd migrate's answer to the same bad argument: exit 2, and the
// nodes there are, so that the operator need not look them up.
TEST_F(CtlAgainstDaemon, MigrateToAnUnknownNodeIsBadUsageListingTheNodes) {
  run({"migrate", "--pid", std::to_string(::getpid()), "--from", "0", "--to", "7"}, 2);
  EXPECT_NE(last_err.find("unknown node 7; this host's nodes are "), std::string::npos) << last_err;
}

TEST_F(CtlAgainstDaemon, WatchPrintsEventsAsTheyHappen) {
  auto watch = daemon->ctl({"--json", "watch", "-n", "1"});
  // The daemon's own rounds (every 500 ms) produce the event.
  ASSERT_EQ(watch->exit_code(10s), 0) << watch->err();
  auto event = json::parse(watch->out());
  EXPECT_FALSE(event["event"].get<std::string>().empty());
}

}  // namespace
}  // namespace nb::testing
