// An exception thrown while the loop thread finishes a round, finishes a job or reloads must not
// escape io.run(): before, any of them ended the daemon (std::terminate on the loop thread).
// Each is logged, counted in numabalancer_internal_errors_total, and the daemon keeps serving.

#include <signal.h>
#include <unistd.h>

#include <thread>

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

class DaemonFaultTest : public ::testing::Test {
 protected:
  TempTree tree;
};

double internal_errors(SocketClient& client, std::string_view during) {
  std::string text = client.call("metrics")["result"]["text"];
  std::string series =
      "numabalancer_internal_errors_total{during=\"" + std::string(during) + "\"} ";
  auto at = text.find(series);
  if (at == std::string::npos) {
    return -1;
  }
  return std::stod(text.substr(at + series.size()));
}

TEST_F(DaemonFaultTest, RoundWhoseDecisionThrowsIsAFailedRoundAndTheDaemonServes) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  EXPECT_EQ(internal_errors(client, "round"), 0) << "every series starts at 0";
  {
    std::lock_guard lock(daemon.fakes().mutex);
    daemon.fakes().decide_throws = true;
  }
  auto round = daemon.reconcile(client);
  ASSERT_TRUE(round.is_object()) << "the daemon died";
  auto status = client.call("status");
  ASSERT_EQ(status["ok"], true) << status.dump();
  EXPECT_EQ(status["result"]["last_round"]["status"], "failed") << status.dump();
  EXPECT_NE(status["result"]["last_round"]["reason"].get<std::string>().find("map::at"),
            std::string::npos)
      << status.dump();
  EXPECT_EQ(internal_errors(client, "round"), 1);

  {
    std::lock_guard lock(daemon.fakes().mutex);
    daemon.fakes().decide_throws = false;
  }
  daemon.set_decision(ready_decision({"pods/a"}));
  auto next = daemon.reconcile(client);
  EXPECT_EQ(next["outcome"], "started") << "the next round runs as usual: " << next.dump();
}

// The job thread catches what the engine throws: the round failed, with the reason, and the slot
// is free for the next one.
TEST_F(DaemonFaultTest, AJobWhoseEngineThrowsIsAFailedRoundWithTheReason) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  {
    std::lock_guard lock(daemon.fakes().mutex);
    daemon.fakes().migrate_throws = true;
  }
  daemon.set_decision(ready_decision({"pods/a"}));
  EXPECT_EQ(daemon.reconcile(client)["outcome"], "started");
  ASSERT_TRUE(daemon.wait_until_idle());
  auto history = client.call("history")["result"]["rounds"];
  ASSERT_EQ(history.size(), 1u) << history.dump();
  EXPECT_EQ(history[0]["outcome"], "failed") << history.dump();
  EXPECT_EQ(history[0]["reason"], "the job failed: the engine broke") << history.dump();
  EXPECT_EQ(history[0]["migrated"], false);
}

// The clock is read while the job's progress is published too, so the fault is armed only after
// that event went out and nothing else reads the clock until the job ends.
TEST_F(DaemonFaultTest, JobWhoseEndThrowsFreesTheJobSlotAndTheDaemonServes) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  SocketClient watcher(daemon.socket());
  ASSERT_EQ(watcher.call("watch")["ok"], true);
  daemon.set_decision(ready_decision({"pods/a"}));
  daemon.hold_jobs();
  daemon.reconcile(client);
  ASSERT_TRUE(daemon.wait_for_job_entered());
  bool progressed = false;
  while (!progressed) {
    auto line = watcher.read_line(5s);
    ASSERT_TRUE(line.has_value()) << "no job_progress event";
    progressed = json::parse(*line, nullptr, false).value("event", "") == "job_progress";
  }
  {
    std::lock_guard lock(daemon.fakes().mutex);
    daemon.fakes().clock_throws_once = true;
  }
  daemon.release_jobs();
  std::this_thread::sleep_for(300ms);
  ASSERT_TRUE(daemon.wait_until_idle()) << "the job slot stayed taken";
  EXPECT_EQ(internal_errors(client, "job_done"), 1);
  auto next = daemon.reconcile(client);
  EXPECT_EQ(next["outcome"], "started") << next.dump();
}

TEST_F(DaemonFaultTest, ReloadThatThrowsKeepsTheOldConfigOverSighupAndTheSocket) {
  auto file = tree.make_file("config.toml", "[daemon]\ndry_run = true\n");
  DaemonHarness daemon(tree);
  daemon.options().config_file = file;
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  {
    std::lock_guard lock(daemon.fakes().mutex);
    daemon.fakes().load_config_throws = true;
  }
  auto reply = client.call("reload");
  EXPECT_EQ(reply["ok"], false) << reply.dump();
  EXPECT_NE(reply.dump().find("reload failed"), std::string::npos) << reply.dump();

  ASSERT_EQ(::kill(::getpid(), SIGHUP), 0);
  double counted = 0;
  for (int i = 0; i < 200 && counted < 2; ++i) {
    std::this_thread::sleep_for(10ms);
    counted = internal_errors(client, "reload");
  }
  EXPECT_EQ(counted, 2) << "the socket's reload and SIGHUP's";
  auto config = client.call("config");
  ASSERT_EQ(config["ok"], true) << config.dump();
  EXPECT_EQ(config["result"]["daemon"]["dry_run"], false) << "the old config stays";
}

}  // namespace
}  // namespace nb::service
