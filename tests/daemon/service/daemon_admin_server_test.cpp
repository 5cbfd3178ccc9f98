// The admin server against clients that misuse it: one client's pipeline must not starve the
// others, a reply too large for the output cap is an error reply, idle watchers must not take
// root's slot, peers' groups are the ones they connected with, and no descriptor leaks into an
// exec'd child.

#include "daemon/service/admin/admin_server.hpp"

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <algorithm>
#include <asio.hpp>
#include <chrono>
#include <future>
#include <iostream>
#include <memory>
#include <thread>

#include "tests/daemon/service/connect_as.hpp"
#include "tests/daemon/service/socket_client.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

using namespace std::chrono_literals;
using nb::testing::error_code;
using nb::testing::SocketClient;
using nlohmann::json;

constexpr uid_t kNobody = 65534;
constexpr gid_t kNoGroup = 65534;

class AdminServerTest : public ::testing::Test {
 protected:
  AdminServerTest() {
    table_.add("status", "Answers ok", Access::read_only,
               [](const json&, CommandContext&) -> CommandOutcome {
                 return json{{"up", true}};
               });
    table_.add("slow", "Takes 20 ms", Access::read_only,
               [](const json&, CommandContext&) -> CommandOutcome {
                 std::this_thread::sleep_for(20ms);
                 return json{{"slow", true}};
               });
    table_.add("big", "A reply of {\"bytes\": N}", Access::read_only,
               [](const json& args, CommandContext&) -> CommandOutcome {
                 return json{{"text", std::string(args.value("bytes", 0), 'x')}};
               });
    table_.add("mutate", "Needs root or the admin group", Access::mutating,
               [](const json&, CommandContext&) -> CommandOutcome {
                 return json{{"done", true}};
               });
    table_.add("watch", "Streams events", Access::read_only,
               [](const json&, CommandContext& context) -> CommandOutcome {
                 context.start_watching = true;
                 return json{{"watching", true}};
               });
    options_.socket_path = tree_.path("admin.sock");
    options_.admin_group = "";
  }

  ~AdminServerTest() override {
    if (thread_.joinable()) {
      asio::post(io_, [this] { server_->stop(); });
      work_.reset();
      thread_.join();
    }
  }

  // Listening, but connections wait in the backlog until run().
  void listen() {
    server_ = std::make_unique<AdminServer>(io_, table_, options_);
    auto started = server_->start();
    ASSERT_TRUE(started.ok()) << started.error().message();
  }

  void run() {
    work_.emplace(asio::make_work_guard(io_));
    thread_ = std::thread([this] { io_.run(); });
  }

  void start() {
    listen();
    run();
  }

  template <typename F>
  auto on_loop(F f) {
    std::promise<decltype(f())> result;
    asio::post(io_, [&] { result.set_value(f()); });
    return result.get_future().get();
  }

  std::string socket() const { return options_.socket_path.string(); }

  nb::testing::TempTree tree_;
  asio::io_context io_;
  CommandTable table_;
  AdminServerOptions options_;
  std::unique_ptr<AdminServer> server_;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_;
  std::thread thread_;
};

TEST_F(AdminServerTest, APipelineOfSlowRequestsDoesNotStarveAnotherClient) {
  start();
  SocketClient flooder(socket());
  std::string pipeline;
  for (int i = 0; i < 100; ++i) {
    pipeline += "{\"id\":" + std::to_string(i) + ",\"cmd\":\"slow\"}\n";
  }
  ASSERT_TRUE(flooder.send_raw(pipeline));
  std::this_thread::sleep_for(50ms);  // the pipeline is being answered

  SocketClient other(socket());
  auto begin = std::chrono::steady_clock::now();
  auto reply = other.call("status");
  auto waited = std::chrono::steady_clock::now() - begin;
  std::cout << "[ figures  ] status behind 100 pipelined 20 ms requests: "
            << std::chrono::duration_cast<std::chrono::milliseconds>(waited).count() << " ms\n";
  EXPECT_EQ(reply["ok"], true);
  EXPECT_LT(waited, 500ms) << "100 x 20 ms is 2 s: the other client waited for the whole pipeline";
  for (int i = 0; i < 100; ++i) {
    auto line = flooder.read_line(5s);
    ASSERT_TRUE(line.has_value()) << "reply " << i;
    EXPECT_EQ(json::parse(*line)["id"], i) << "replies keep the order of the requests";
  }
}

TEST_F(AdminServerTest, AReplyLargerThanTheOutputCapIsAnErrorReplyAndTheConnectionStays) {
  options_.max_queued_bytes = 64 * 1024;
  start();
  SocketClient client(socket());
  auto reply = client.call("big", json{{"bytes", 100 * 1024}});
  EXPECT_EQ(error_code(reply), "reply_too_large") << reply.dump().substr(0, 200);
  EXPECT_EQ(client.call("status")["ok"], true);
  EXPECT_EQ(client.call("big", json{{"bytes", 1000}})["ok"], true);
}

TEST_F(AdminServerTest, SixtyFiveIdleWatchersLeaveRootAnAnswer) {
  start();
  std::vector<std::unique_ptr<SocketClient>> watchers;
  int watching = 0;
  int refused = 0;
  for (int i = 0; i < 65; ++i) {
    watchers.push_back(std::make_unique<SocketClient>(socket()));
    auto reply = watchers.back()->call("watch");
    watching += reply["ok"] == true ? 1 : 0;
    refused += error_code(reply) == "busy" ? 1 : 0;
  }
  EXPECT_EQ(watching, 16) << "max_watchers";
  EXPECT_EQ(refused, 65 - 16);
  SocketClient root(socket());
  EXPECT_EQ(root.call("status")["ok"], true) << "root is locked out by watchers";
  EXPECT_EQ(on_loop([&] { return server_->watchers(); }), 16u);
}

TEST_F(AdminServerTest, OrdinaryPeersCannotTakeTheSlotsKeptForRoot) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "connecting as another user needs root";
  }
  options_.max_clients = 2;
  options_.socket_mode = 0666;
  ::chmod(tree_.root().c_str(), 0755);
  start();
  std::vector<std::unique_ptr<SocketClient>> users;
  for (int i = 0; i < 3; ++i) {
    int fd = nb::testing::connect_as(socket(), kNobody, kNoGroup);
    ASSERT_GE(fd, 0);
    users.push_back(std::make_unique<SocketClient>(SocketClient::Adopt{fd}));
  }
  EXPECT_EQ(users[0]->call("status")["ok"], true);
  EXPECT_EQ(users[1]->call("status")["ok"], true);
  auto refused = users[2]->read_line(2s);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(error_code(json::parse(*refused)), "busy");
  SocketClient root(socket());
  EXPECT_EQ(root.call("status")["ok"], true) << "root gets one of the reserved slots";
}

TEST_F(AdminServerTest, SupplementaryGroupsAreTheOnesThePeerConnectedWith) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "connecting as another user needs root";
  }
  group* admin = ::getgrnam("daemon");
  ASSERT_NE(admin, nullptr);
  gid_t admin_gid = admin->gr_gid;
  options_.admin_group = "daemon";
  options_.socket_mode = 0666;
  ::chmod(tree_.root().c_str(), 0755);
  listen();
  // The peer has exited (and its pid could be anyone's) before the server accepts it.
  int member = nb::testing::connect_as(socket(), kNobody, kNoGroup, {admin_gid});
  int outsider = nb::testing::connect_as(socket(), kNobody, kNoGroup, {kNoGroup});
  ASSERT_GE(member, 0);
  ASSERT_GE(outsider, 0);
  run();
  SocketClient member_client(SocketClient::Adopt{member});
  SocketClient outsider_client(SocketClient::Adopt{outsider});
  auto allowed = member_client.call("mutate");
  EXPECT_EQ(allowed["ok"], true) << allowed.dump();
  EXPECT_EQ(error_code(outsider_client.call("mutate")), "forbidden");
}

TEST_F(AdminServerTest, UnreadOutputIsCappedAcrossConnections) {
  options_.max_total_queued_bytes = 2 * 1024 * 1024;
  start();
  std::vector<std::unique_ptr<SocketClient>> watchers;
  for (int i = 0; i < 8; ++i) {
    watchers.push_back(std::make_unique<SocketClient>(socket()));
    ASSERT_EQ(watchers.back()->call("watch")["ok"], true);
  }
  // None of them reads: each would hold up to its own 8 MiB cap, 40 MiB in all.
  std::size_t most = 0;
  for (int i = 0; i < 20; ++i) {
    most = std::max(most, on_loop([&] {
                      server_->broadcast(wire::Event{"round", "now", std::string(256 * 1024, 'e')});
                      return server_->queued_bytes();
                    }));
  }
  EXPECT_LE(most, options_.max_total_queued_bytes);
  EXPECT_LT(on_loop([&] { return server_->watchers(); }), 8u) << "the biggest readers were dropped";
  SocketClient root(socket());
  EXPECT_EQ(root.call("status")["ok"], true);
}

// The server's sockets are the ones whose own address is the socket path: the listener and each
// accepted connection (a client's end has no name).
std::vector<int> server_sockets(const std::string& path) {
  std::vector<int> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    int fd = std::stoi(entry.path().filename().string());
    sockaddr_un address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0 &&
        address.sun_family == AF_UNIX && path == address.sun_path) {
      found.push_back(fd);
    }
  }
  return found;
}

TEST_F(AdminServerTest, TheListenerAndAcceptedConnectionsAreCloseOnExec) {
  start();
  SocketClient client(socket());
  ASSERT_EQ(client.call("status")["ok"], true);
  auto sockets = server_sockets(socket());
  ASSERT_GE(sockets.size(), 2u) << "the listener and the accepted connection";
  for (int fd : sockets) {
    EXPECT_NE(::fcntl(fd, F_GETFD) & FD_CLOEXEC, 0) << "fd " << fd << " leaks into exec'd children";
  }
}

}  // namespace
}  // namespace nb::service
