// The real numabalancerd on this host, with the `file` metrics provider, driven over its socket
// and by signals.

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "tests/daemon/service/running_daemon.hpp"

namespace nb::testing {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

TEST(DaemonEndToEnd, ServesTheLiveHostAndStopsCleanlyOnSigterm) {
  TempTree tree;
  RunningDaemon daemon(tree);
  ASSERT_TRUE(daemon.ready()) << daemon.process().err();

  SocketClient client(daemon.socket());
  // The socket answers before the first round has ended on a loaded machine: wait for one.
  json status;
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  do {
    status = client.call("status")["result"];
    if (status["last_round"].is_object()) {
      break;
    }
    std::this_thread::sleep_for(100ms);
  } while (std::chrono::steady_clock::now() < give_up);
  EXPECT_EQ(status["state"], "running");
  ASSERT_TRUE(status["last_round"].is_object()) << status.dump();
  json latency_provider;
  for (const auto& provider : status["providers"]) {
    if (provider["metric"] == "read_latency") {
      latency_provider = provider;
    }
  }
  EXPECT_EQ(latency_provider["provider"], "file") << status.dump();
  EXPECT_EQ(latency_provider["up"], true) << status.dump();

  auto topology = client.call("topology")["result"];
  ASSERT_FALSE(topology["nodes"].empty());
  EXPECT_EQ(topology["nodes"][0]["read_latency_ns"], 95.5);

  auto metrics = client.call("metrics")["result"]["text"].get<std::string>();
  EXPECT_NE(
      metrics.find("numabalancer_node_read_latency_seconds{node=\"0\",provider=\"file\"} 9.55e-08"),
      std::string::npos)
      << metrics;

  // Rounds keep coming on the interval.
  auto first_rounds = status["rounds"].get<int>();
  std::this_thread::sleep_for(1200ms);
  EXPECT_GT(client.call("status")["result"]["rounds"].get<int>(), first_rounds);

  auto begin = std::chrono::steady_clock::now();
  daemon.process().signal(SIGTERM);
  EXPECT_EQ(daemon.process().exit_code(5s), 0) << daemon.process().err();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 5s);
  EXPECT_FALSE(std::filesystem::exists(daemon.socket()));
  EXPECT_TRUE(std::filesystem::exists(tree.path("state/state.json")));
}

TEST(DaemonEndToEnd, SecondInstanceIsRefusedWithAClearMessage) {
  TempTree tree;
  RunningDaemon first(tree);
  ASSERT_TRUE(first.ready()) << first.process().err();
  ChildProcess second({binary("numabalancerd"), "--config", first.config().string()}, tree.root());
  EXPECT_EQ(second.exit_code(20s), 1);
  EXPECT_NE(second.err().find("refusing to start a second one"), std::string::npos) << second.err();
  SocketClient client(first.socket());
  EXPECT_EQ(client.call("status")["ok"], true) << "the first instance keeps its socket";
}

TEST(DaemonEndToEnd, InvalidConfigAtStartIsRefusedWithItsErrors) {
  TempTree tree;
  auto config = tree.make_file("bad.toml", "[daemon]\ninterval = \"soon\"\n");
  ChildProcess daemon({binary("numabalancerd"), "--config", config.string()}, tree.root());
  EXPECT_EQ(daemon.exit_code(20s), 2);
  EXPECT_NE(daemon.err().find("interval"), std::string::npos) << daemon.err();
}

TEST(DaemonEndToEnd, SighupReloadsAGoodConfigAndKeepsTheOldOneOnErrors) {
  TempTree tree;
  RunningDaemon daemon(tree);
  ASSERT_TRUE(daemon.ready()) << daemon.process().err();
  SocketClient client(daemon.socket());

  tree.make_file("config.toml", e2e_config(tree, "nonsense = 1"));
  daemon.process().signal(SIGHUP);
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(client.call("status")["result"]["dry_run"], false);

  tree.make_file("config.toml", e2e_config(tree, "dry_run = true"));
  daemon.process().signal(SIGHUP);
  bool applied = false;
  for (int i = 0; i < 300 && !applied; ++i) {
    applied = client.call("status")["result"]["dry_run"] == true;
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(applied);
  EXPECT_FALSE(daemon.process().wait(0ms).has_value()) << "still running";
}

// systemd's side of Type=notify: READY=1 after the first round, STOPPING=1 on the way out.
TEST(DaemonEndToEnd, TellsSystemdWhenReadyAndWhenStopping) {
  TempTree tree;
  auto path = tree.path("notify").string();
  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);

  RunningDaemon daemon(tree, "", {"NOTIFY_SOCKET=" + path});
  std::vector<std::string> messages;
  auto receive_until = [&](const std::string& wanted) {
    auto deadline = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd waiting{fd, POLLIN, 0};
      if (::poll(&waiting, 1, 100) <= 0) {
        continue;
      }
      char buffer[4096];
      ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
      if (got > 0) {
        messages.emplace_back(buffer, static_cast<std::size_t>(got));
        if (messages.back().find(wanted) != std::string::npos) {
          return true;
        }
      }
    }
    return false;
  };
  ASSERT_TRUE(receive_until("READY=1")) << daemon.process().err();
  EXPECT_NE(messages.back().find("STATUS=round "), std::string::npos) << messages.back();
  daemon.process().signal(SIGTERM);
  EXPECT_TRUE(receive_until("STOPPING=1"));
  EXPECT_EQ(daemon.process().exit_code(5s), 0);
  ::close(fd);
}

}  // namespace
}  // namespace nb::testing
