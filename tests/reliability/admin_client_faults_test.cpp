// Admin clients that misbehave at scale: half a request and gone, or a thousand connections opened
// and closed. The server must drop each one, keep serving, and end with the file descriptors it
// started with.

#include <gtest/gtest.h>

#include <asio.hpp>
#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "daemon/service/admin/admin_server.hpp"
#include "daemon/service/admin/command_table.hpp"
#include "tests/daemon/service/socket_client.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::reliability {
namespace {

using namespace std::chrono_literals;
using nb::testing::SocketClient;

std::size_t open_fds() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    ++count;
  }
  return count;
}

class AdminClientFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    table_.add("status", "Answers ok", service::Access::read_only,
               [](const nlohmann::json&, service::CommandContext&) -> service::CommandOutcome {
                 return nlohmann::json{{"state", "running"}};
               });
    service::AdminServerOptions options;
    options.socket_path = tree_.path("admin.sock");
    options.admin_group = "";
    options.max_clients = 64;
    server_ = std::make_unique<service::AdminServer>(io_, table_, options);
    auto started = server_->start();
    ASSERT_TRUE(started.ok()) << started.error().message();
    work_.emplace(asio::make_work_guard(io_));
    thread_ = std::thread([this] { io_.run(); });
  }

  void TearDown() override {
    if (thread_.joinable()) {
      asio::post(io_, [this] { server_->stop(); });
      work_.reset();
      thread_.join();
    }
  }

  std::size_t connections() {
    std::promise<std::size_t> count;
    asio::post(io_, [&] { count.set_value(server_->connections()); });
    return count.get_future().get();
  }

  bool wait_for_no_connections(std::chrono::milliseconds timeout = 5s) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (connections() != 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        return false;
      }
      std::this_thread::sleep_for(1ms);
    }
    return true;
  }

  bool wait_for_fds(std::size_t expected, std::chrono::milliseconds timeout = 5s) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (open_fds() != expected) {
      if (std::chrono::steady_clock::now() > deadline) {
        return false;
      }
      std::this_thread::sleep_for(1ms);
    }
    return true;
  }

  bool status_answers() {
    SocketClient client(socket());
    if (!client.connected() || !client.send_raw("{\"id\":1,\"cmd\":\"status\"}\n")) {
      return false;
    }
    auto line = client.read_line();
    return line && nlohmann::json::parse(*line, nullptr, false).value("ok", false);
  }

  std::string socket() const { return tree_.path("admin.sock").string(); }

  nb::testing::TempTree tree_;
  asio::io_context io_;
  service::CommandTable table_;
  std::unique_ptr<service::AdminServer> server_;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_;
  std::thread thread_;
};

TEST_F(AdminClientFaults, ClientsSendingHalfALineAndVanishingAreAllDropped) {
  ASSERT_TRUE(status_answers());
  ASSERT_TRUE(wait_for_no_connections());
  std::size_t baseline = open_fds();

  for (int i = 0; i < 200; ++i) {
    SocketClient client(socket());
    ASSERT_TRUE(client.connected()) << "connection " << i;
    ASSERT_TRUE(client.send_raw("{\"id\":1,\"cmd\":\"sta"));
  }

  EXPECT_TRUE(wait_for_no_connections());
  EXPECT_TRUE(wait_for_fds(baseline)) << open_fds() << " open, " << baseline << " before";
  EXPECT_TRUE(status_answers());
}

TEST_F(AdminClientFaults, ThousandConnectDisconnectCyclesLeakNoFileDescriptor) {
  ASSERT_TRUE(status_answers());
  ASSERT_TRUE(wait_for_no_connections());
  std::size_t baseline = open_fds();

  for (int i = 0; i < 1000; ++i) {
    if (i % 10 == 0) {
      ASSERT_TRUE(status_answers()) << "cycle " << i;
    } else {
      SocketClient client(socket());
      ASSERT_TRUE(client.connected()) << "cycle " << i;
    }
  }

  EXPECT_TRUE(wait_for_no_connections());
  EXPECT_TRUE(wait_for_fds(baseline)) << open_fds() << " open, " << baseline << " before";
  EXPECT_TRUE(status_answers());
}

TEST_F(AdminClientFaults, ClientVanishingBeforeReadingItsReplyIsDropped) {
  ASSERT_TRUE(status_answers());
  ASSERT_TRUE(wait_for_no_connections());
  std::size_t baseline = open_fds();

  for (int i = 0; i < 200; ++i) {
    SocketClient client(socket());
    ASSERT_TRUE(client.connected());
    ASSERT_TRUE(client.send_raw("{\"id\":1,\"cmd\":\"status\"}\n{\"id\":2,\"cmd\":\"status\"}\n"));
  }

  EXPECT_TRUE(wait_for_no_connections());
  EXPECT_TRUE(wait_for_fds(baseline)) << open_fds() << " open, " << baseline << " before";
  EXPECT_TRUE(status_answers());
}

}  // namespace
}  // namespace nb::reliability
