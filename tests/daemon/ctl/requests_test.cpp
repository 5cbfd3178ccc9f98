// What numabalancerctl sends for a command line and how it shows the answer, against a fake
// daemon on a Unix socket that records each request and answers from a script.

#include "daemon/ctl/requests.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include "daemon/wire/protocol.hpp"
#include "tests/daemon/ctl/parse_command.hpp"
#include "tests/daemon/ctl/scripted_daemon.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::ctl {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

// Accepts one client and answers each of its requests with the next scripted response.
class FakeDaemon {
 public:
  FakeDaemon(std::filesystem::path socket, std::vector<wire::Response> answers)
      : socket_(std::move(socket)), answers_(std::move(answers)) {
    std::filesystem::remove(socket_);  // the previous run's
    listener_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socket_.c_str(), sizeof address.sun_path - 1);
    EXPECT_EQ(::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    EXPECT_EQ(::listen(listener_, 1), 0);
    thread_ = std::thread([this] { serve(); });
  }
  ~FakeDaemon() {
    if (thread_.joinable()) {
      thread_.join();
    }
    ::close(listener_);
  }
  FakeDaemon(const FakeDaemon&) = delete;
  FakeDaemon& operator=(const FakeDaemon&) = delete;

  // Valid once the client has gone.
  const std::vector<wire::Request>& requests() {
    if (thread_.joinable()) {
      thread_.join();
    }
    return requests_;
  }

 private:
  void serve() {
    int client = ::accept(listener_, nullptr, nullptr);
    std::string buffer;
    char chunk[4096];
    for (auto& answer : answers_) {
      std::size_t end;
      while ((end = buffer.find('\n')) == std::string::npos) {
        ssize_t got = ::read(client, chunk, sizeof chunk);
        if (got <= 0) {
          ::close(client);
          return;
        }
        buffer.append(chunk, static_cast<std::size_t>(got));
      }
      auto parsed = wire::parse_request(std::string_view(buffer).substr(0, end));
      buffer.erase(0, end + 1);
      requests_.push_back(std::get<wire::Request>(parsed));
      answer.id = requests_.back().id;
      std::string line = wire::to_line(answer);
      EXPECT_EQ(::write(client, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    }
    ::close(client);
  }

  std::filesystem::path socket_;
  std::vector<wire::Response> answers_;
  std::vector<wire::Request> requests_;
  int listener_ = -1;
  std::thread thread_;
};

class RequestsTest : public ::testing::Test {
 protected:
  // Runs the command line against a daemon that answers `answers`; returns the exit code.
  int run(std::string_view name, std::vector<std::string> args, std::vector<wire::Response> answers,
          bool json_output = false) {
    FakeDaemon daemon(tree.path("admin.sock"), std::move(answers));
    Options options;
    options.socket = tree.path("admin.sock").string();
    options.json_output = json_output;
    options.timeout_s = 5;
    Action action = parse_command(name, std::move(args));
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    int code = action(options, *find_command(name));
    out = ::testing::internal::GetCapturedStdout();
    err = ::testing::internal::GetCapturedStderr();
    sent = daemon.requests();
    return code;
  }

  nb::testing::TempTree tree;
  std::vector<wire::Request> sent;
  std::string out;
  std::string err;
};

TEST_F(RequestsTest, HistoryAsksForTheLastTwentyRoundsByDefault) {
  EXPECT_EQ(run("history", {}, {wire::success(nullptr, {{"rounds", json::array()}})}), kOk);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].cmd, "history");
  EXPECT_EQ(sent[0].args, json({{"limit", 20}}));
  EXPECT_THAT(out, HasSubstr("no rounds kept yet"));
}

TEST_F(RequestsTest, HistorySinceSendsTheLimitOnlyWhenGiven) {
  run("history", {"--since", "15m"}, {wire::success(nullptr, {{"entries", json::array()}})});
  EXPECT_EQ(sent.at(0).args, json({{"since", "15m"}}));
  run("history", {"--since", "15m", "-n", "3"},
      {wire::success(nullptr, {{"entries", json::array()}})});
  EXPECT_EQ(sent.at(0).args, json({{"since", "15m"}, {"limit", 3}}));
}

TEST_F(RequestsTest, PlanContainersAndDryRunArguments) {
  const auto ok = wire::success(nullptr, json::object());
  run("plan", {"--explain"}, {wire::success(nullptr, {{"text", "because\n"}})});
  EXPECT_EQ(sent.at(0).args, json({{"explain", true}}));
  EXPECT_EQ(out, "because\n");
  run("containers", {}, {ok});
  EXPECT_EQ(sent.at(0).args, json::object());
  run("containers", {"-n", "4"}, {ok});
  EXPECT_EQ(sent.at(0).args, json({{"limit", 4}}));
  run("dry_run", {"true"}, {wire::success(nullptr, {{"dry_run", true}})});
  EXPECT_EQ(sent.at(0).args, json({{"enabled", true}}));
  EXPECT_EQ(out, "dry-run on\n");
}

TEST_F(RequestsTest, MigrateWithoutWaitingSendsTheJobAndPrintsItsJson) {
  const json started{{"job", 3}};
  EXPECT_EQ(run("migrate",
                {"--pid", "42", "--from", "1", "--to", "0,2", "--max-bytes", "1GiB", "--rate", "50",
                 "--no-wait"},
                {wire::success(nullptr, started)}),
            kOk);
  EXPECT_EQ(sent.at(0).cmd, "migrate");
  EXPECT_EQ(sent.at(0).args, json({{"from", 1},
                                   {"to", "0,2"},
                                   {"dry_run", false},
                                   {"pid", 42},
                                   {"max_bytes", "1GiB"},
                                   {"rate", 50.0}}));
  EXPECT_EQ(out, started.dump(2) + "\n");
}

TEST_F(RequestsTest, SnapshotIsAlwaysJson) {
  const json snapshot{{"nodes", json::array()}};
  run("snapshot", {}, {wire::success(nullptr, snapshot)});
  EXPECT_EQ(out, snapshot.dump(2) + "\n");
}

TEST_F(RequestsTest, JsonFlagPrintsTheResultAsSent) {
  const json status{{"state", "running"}};
  run("status", {}, {wire::success(nullptr, status)}, /*json_output=*/true);
  EXPECT_EQ(out, status.dump(2) + "\n");
}

TEST_F(RequestsTest, AReplyOfAnUnknownShapeIsAnErrorThatPointsAtJson) {
  EXPECT_EQ(run("status", {}, {wire::success(nullptr, {{"dry_run", "a while"}})}), kFailed);
  EXPECT_EQ(out, "");
  EXPECT_NE(err.find("cannot show the reply to status"), std::string::npos) << err;
  EXPECT_NE(err.find("--json prints it"), std::string::npos) << err;
}

TEST_F(RequestsTest, ErrorReplyExitsOneWithCodeAndMessage) {
  EXPECT_EQ(run("pause", {}, {wire::failure(nullptr, wire::ErrorCode::forbidden, "not root")}),
            kFailed);
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "numabalancerctl: forbidden: not root\n");
}

TEST(Requests, NoDaemonIsUsageWithTheSocketNamed) {
  nb::testing::TempTree tree;
  Options options;
  options.socket = tree.path("none.sock").string();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(ask(options, "status", json::object(), format_status), kUsage);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(err,
              HasSubstr("numabalancerctl: cannot connect to numabalancerd at " + options.socket));
  EXPECT_THAT(err, HasSubstr("--socket"));
  EXPECT_THAT(err, HasSubstr("$NUMABALANCER_SOCKET"));
}

// A dry run claims no threshold: it exits 0 once it ran, and says what it would move.
TEST(Requests, MigrateDryRunSucceedsWithoutAThreshold) {
  nb::testing::TempTree tree;
  Options options;
  options.socket = tree.path("admin.sock").string();
  json done{{"job", 8},
            {"outcome", "done"},
            {"moved_bytes", 0},
            {"report",
             {{"dry_run", true},
              {"threshold_met", nullptr},
              {"stop_reason", "completed"},
              {"goal", 4 << 20},
              {"bytes_on_source", 6 << 20}}}};
  nb::testing::ScriptedDaemon daemon(options.socket, [&](const wire::Request& request) {
    if (request.cmd == "migrate") {
      return std::vector<std::string>{nb::testing::reply(request, {{"job", 8}}),
                                      nb::testing::event_line("job_done", done)};
    }
    return std::vector<std::string>{nb::testing::reply(request, json::object())};
  });
  Action action =
      parse_command("migrate", {"--pid", "42", "--from", "1", "--to", "0", "--dry-run"});
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(action(options, *find_command("migrate")), kOk);
  EXPECT_THAT(::testing::internal::GetCapturedStdout(),
              HasSubstr("job 8: done, dry run: would move 4.0 MiB, nothing moved"));
}

}  // namespace
}  // namespace nb::ctl
