// The admin socket's clients: who may do what, many at once, broken ones, and too many.

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

#include "tests/daemon/service/connect_as.hpp"
#include "tests/daemon/service/daemon_harness.hpp"
#include "tests/support/sanitizers.hpp"

namespace nb::service {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using testing::DaemonHarness;
using testing::DaemonTest;
using testing::error_code;
using testing::SocketClient;

TEST_F(DaemonTest, NonAdminPeerIsForbiddenToPauseButGetsStatus) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "needs root to drop a child to uid nobody";
  }
  passwd* nobody = ::getpwnam("nobody");
  if (nobody == nullptr) {
    GTEST_SKIP() << "no user nobody";
  }
  std::filesystem::permissions(tree.root(), std::filesystem::perms::owner_all |
                                                std::filesystem::perms::group_exec |
                                                std::filesystem::perms::others_exec);
  std::filesystem::create_directories(tree.path("run"));
  std::filesystem::permissions(tree.path("run"), std::filesystem::perms::owner_all |
                                                     std::filesystem::perms::group_exec |
                                                     std::filesystem::perms::others_exec);
  config::Config config;
  config.admin.socket_mode = 0666;
  DaemonHarness daemon(tree, config);
  ASSERT_TRUE(daemon.start().ok());

  // The peer's credentials are the connect(2)'s: a child as nobody connects and hands the socket
  // back.
  SocketClient client(
      SocketClient::Adopt{testing::connect_as(daemon.socket(), nobody->pw_uid, nobody->pw_gid)});
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(client.send_raw("{\"id\":1,\"cmd\":\"pause\"}\n{\"id\":2,\"cmd\":\"status\"}\n"));
  auto pause_line = client.read_line();
  auto status_line = client.read_line();
  ASSERT_TRUE(pause_line && status_line);
  auto pause = json::parse(*pause_line);
  auto answered = json::parse(*status_line);
  EXPECT_EQ(error_code(pause), "forbidden");
  EXPECT_EQ(answered["ok"], true);
  EXPECT_EQ(answered["result"]["paused"], false);
}

TEST_F(DaemonTest, FiftyConcurrentClientsGetStatusWithin50msWhileAJobRuns) {
  DaemonHarness daemon(tree);
  ASSERT_TRUE(daemon.start().ok());
  ASSERT_TRUE(daemon.start_a_held_job());

  constexpr int kClients = 50;
  std::vector<std::unique_ptr<SocketClient>> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.push_back(std::make_unique<SocketClient>(daemon.socket()));
    ASSERT_TRUE(clients.back()->connected());
  }
  // One thread sends all 50 requests back to back and then waits on every socket at once. Fifty
  // client threads would compete with the daemon for the machine's cores, and on a loaded
  // machine the test would measure the scheduler instead of the daemon. For the same reason a
  // burst is tried up to three times: one preempted burst on a busy CI machine says nothing about
  // the daemon, while three slow ones in a row do.
  const std::string request = json{{"id", 1}, {"cmd", "status"}}.dump() + "\n";
  auto burst = [&]() -> std::optional<std::chrono::microseconds> {
    std::vector<std::optional<std::chrono::microseconds>> latency(kClients);
    auto begin = std::chrono::steady_clock::now();
    for (auto& client : clients) {
      EXPECT_TRUE(client->send_raw(request));
    }
    auto deadline = begin + 10s;
    int pending = kClients;
    while (pending > 0 && std::chrono::steady_clock::now() < deadline) {
      std::vector<pollfd> waiting;
      std::vector<int> index;
      for (int i = 0; i < kClients; ++i) {
        if (!latency[i]) {
          waiting.push_back(pollfd{clients[i]->fd(), POLLIN, 0});
          index.push_back(i);
        }
      }
      if (::poll(waiting.data(), waiting.size(), 100) <= 0) {
        continue;
      }
      for (std::size_t k = 0; k < waiting.size(); ++k) {
        if ((waiting[k].revents & (POLLIN | POLLHUP)) == 0) {
          continue;
        }
        int i = index[k];
        auto line = clients[i]->read_line(1s);
        latency[i] = std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::steady_clock::now() - begin);
        --pending;
        auto reply = line ? json::parse(*line, nullptr, false) : json();
        EXPECT_TRUE(reply.is_object() && reply["ok"] == true && reply["result"]["job"].is_object())
            << "client " << i << ": " << line.value_or("(no line)");
      }
    }
    if (pending > 0) {
      ADD_FAILURE() << pending << " clients got no answer within 10 s";
      return std::nullopt;
    }
    return **std::max_element(latency.begin(), latency.end());
  };
  const auto bound = testing::kSanitizerSlowdown * 50ms;
  std::chrono::microseconds best = 10s;
  for (int attempt = 1; attempt <= 3 && best >= bound; ++attempt) {
    auto slowest = burst();
    ASSERT_TRUE(slowest.has_value());
    std::cout << "[ figures  ] 50 concurrent status calls during a job, burst " << attempt
              << ": slowest " << slowest->count() << " us\n";
    best = std::min(best, *slowest);
  }
  EXPECT_LT(best, bound);
  daemon.release_jobs();
}

TEST_F(DaemonTest, MalformedOversizedAndHalfSentLinesLeaveTheDaemonServing) {
  config::Config config;
  config.admin.max_request_bytes = 1024;
  config.admin.idle_timeout = 300ms;
  DaemonHarness daemon(tree, config);
  ASSERT_TRUE(daemon.start().ok());

  SocketClient client(daemon.socket());
  client.send_raw("this is not json\n");
  EXPECT_EQ(error_code(json::parse(*client.read_line())), "bad_request");
  client.send_raw(std::string(5000, 'x') + "\n");
  EXPECT_EQ(error_code(json::parse(*client.read_line())), "too_large");
  client.send_raw("{\"cmd\": \"status\", \"args\": [1]}\n");
  EXPECT_EQ(error_code(json::parse(*client.read_line())), "bad_request");
  // The same connection still works after all of that.
  EXPECT_EQ(client.call("status")["ok"], true);

  SocketClient half(daemon.socket());
  ASSERT_TRUE(half.send_raw("{\"cmd\": \"sta"));
  SocketClient other(daemon.socket());
  EXPECT_EQ(other.call("status")["ok"], true);
  EXPECT_TRUE(half.closed_by_peer(3s)) << "a half-sent line must not hold a connection forever";
}

TEST_F(DaemonTest, ConnectionsBeyondMaxClientsAndTheReservedSlotsAreRefusedWithBusy) {
  config::Config config;
  config.admin.max_clients = 2;
  DaemonHarness daemon(tree, config);
  ASSERT_TRUE(daemon.start().ok());
  // The test runs as root (or as the daemon's own user): it may take the reserved slots too.
  bool reserved = ::geteuid() == 0;
  std::vector<std::unique_ptr<SocketClient>> served;
  for (int i = 0; i < 2 + (reserved ? service::kAdminReservedSlots : 0); ++i) {
    served.push_back(std::make_unique<SocketClient>(daemon.socket()));
    ASSERT_EQ(served.back()->call("status")["ok"], true) << "connection " << i;
  }
  SocketClient refused(daemon.socket());
  auto line = refused.read_line(2s);
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(error_code(json::parse(*line)), "busy");
  EXPECT_TRUE(refused.closed_by_peer(2s));
  EXPECT_EQ(served.front()->call("status")["ok"], true);
}

}  // namespace
}  // namespace nb::service
