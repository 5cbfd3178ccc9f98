// The daemon's process life: stopping mid-job, restarting with its state, a corrupt state file,
// a second instance and a crashed one's socket.

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
using testing::ready_decision;
using testing::SocketClient;

TEST_F(DaemonTest, StopDuringAJobCancelsItSavesStateAndExitsQuickly) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  ASSERT_TRUE(daemon.start_a_held_job());
  auto begin = std::chrono::steady_clock::now();
  ASSERT_EQ(::kill(::getpid(), SIGTERM), 0);
  ASSERT_TRUE(daemon.join(5s));
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 5s);
  EXPECT_FALSE(std::filesystem::exists(daemon.socket())) << "the socket is removed on exit";
  auto saved = codec::load_state(tree.path("state/state.json"), TimePoint{});
  ASSERT_EQ(saved.contents.rounds.size(), 1u);
  EXPECT_EQ(saved.contents.rounds[0].outcome, rounds::RoundOutcome::cancelled);
}

TEST_F(DaemonTest, HistorySurvivesARestart) {
  {
    DaemonHarness daemon(tree);
    ASSERT_TRUE(daemon.start().ok());
    daemon.set_decision(ready_decision({"pods/a"}));
    SocketClient client(daemon.socket());
    ASSERT_TRUE(daemon.reconcile(client).is_object());
    ASSERT_TRUE(daemon.wait_until_idle());
  }
  DaemonHarness restarted(tree);
  ASSERT_TRUE(restarted.start().ok());
  std::lock_guard lock(restarted.fakes().mutex);
  ASSERT_FALSE(restarted.fakes().history_sizes.empty());
  EXPECT_EQ(restarted.fakes().history_sizes.front(), 1u) << "the acted round reaches decide()";
}

TEST_F(DaemonTest, CorruptStateFileIsMovedAsideAndTheDaemonStarts) {
  tree.make_file("state/state.json", "{ not json");
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  EXPECT_EQ(client.call("status")["ok"], true);
  bool moved_aside = false;
  for (const auto& entry : std::filesystem::directory_iterator(tree.path("state"))) {
    if (entry.path().filename().string().starts_with("state.json.corrupt-")) {
      moved_aside = testing::read_file(entry.path()) == "{ not json";
    }
  }
  EXPECT_TRUE(moved_aside);
  std::lock_guard lock(daemon.fakes().mutex);
  EXPECT_EQ(daemon.fakes().history_sizes.front(), 0u);
}

TEST_F(DaemonTest, SecondInstanceIsRefusedAndTheFirstKeepsServing) {
  DaemonHarness first(tree);
  ASSERT_TRUE(first.start().ok());
  DaemonHarness second(tree);
  auto started = second.start();
  ASSERT_FALSE(started.ok());
  EXPECT_NE(started.error().message().find("refusing to start a second one"), std::string::npos);
  SocketClient client(first.socket());
  EXPECT_EQ(client.call("status")["ok"], true);
}

TEST_F(DaemonTest, StaleSocketFromACrashedDaemonIsReplaced) {
  std::filesystem::create_directories(tree.path("run"));
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  auto path = tree.path("run/admin.sock").string();
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ::close(fd);
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  EXPECT_EQ(client.call("status")["ok"], true);
}

}  // namespace
}  // namespace nb::service
