// --timeout bounds every wait of numabalancerctl: against a daemon that takes the connection and
// never answers, one that acknowledges a request and never sends its result, and one whose
// backlog is full, each command ends within its timeout with exit code 3 and says so.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <memory>

#include "daemon/ctl/requests.hpp"
#include "daemon/ctl/top_view.hpp"
#include "tests/daemon/ctl/parse_command.hpp"
#include "tests/daemon/ctl/scripted_daemon.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::ctl {
namespace {

using namespace std::chrono_literals;
using nb::testing::event_line;
using nb::testing::reply;
using nb::testing::ScriptedDaemon;
using nlohmann::json;
using ::testing::HasSubstr;

constexpr auto kTimeout = 1s;
// What the bound allows beyond --timeout: scheduling, and the fake daemon's 20 ms polls.
constexpr auto kSlack = 1s;

struct Ended {
  std::optional<int> exit_code;  // none: still waiting when the test gave up on it
  std::chrono::milliseconds took{0};
  std::string err;
};

// Runs `action` on a thread and waits for it, at most twice the bound: code that waits for good
// fails the test instead of hanging it (the thread is left behind, and ends with the process).
Ended run_bounded(std::function<int()> action) {
  auto done = std::make_shared<std::promise<int>>();
  auto result = done->get_future();
  const auto start = std::chrono::steady_clock::now();
  ::testing::internal::CaptureStderr();
  std::thread([action = std::move(action), done] { done->set_value(action()); }).detach();
  Ended ended;
  if (result.wait_for(2 * (kTimeout + kSlack)) == std::future_status::ready) {
    ended.exit_code = result.get();
  }
  ended.took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  ended.err = ::testing::internal::GetCapturedStderr();
  return ended;
}

class Timeout : public ::testing::Test {
 protected:
  Timeout() {
    options.socket = tree.path("admin.sock").string();
    options.timeout_s = std::chrono::duration<double>(kTimeout).count();
  }

  // Runs the command line as main() would, on a copy of the options.
  Ended run(std::string_view name, std::vector<std::string> args = {}) {
    Action action = parse_command(name, std::move(args));
    const Command* command = find_command(name);
    return run_bounded([action, command, options = options] { return action(options, *command); });
  }

  void expect_timed_out(const Ended& ended, const std::string& waiting_for) {
    ASSERT_TRUE(ended.exit_code.has_value())
        << "still waiting after " << ended.took.count() << " ms";
    EXPECT_EQ(*ended.exit_code, kTimedOut) << ended.err;
    EXPECT_LE(ended.took, kTimeout + kSlack);
    EXPECT_GE(ended.took, kTimeout - 50ms) << "gave up before --timeout";
    EXPECT_THAT(ended.err, HasSubstr(waiting_for));
    EXPECT_THAT(ended.err, HasSubstr("within 1 s (--timeout)"));
  }

  nb::testing::TempTree tree;
  Options options;
};

std::vector<std::string> silence(const wire::Request&) {
  return {};
}

// Acknowledges `watch` and answers `cmd` with `result`, then says nothing more.
ScriptedDaemon::Script acknowledges(std::string cmd, json result) {
  return [cmd = std::move(cmd), result = std::move(result)](const wire::Request& request) {
    if (request.cmd == "watch") {
      return std::vector<std::string>{reply(request, json::object())};
    }
    if (request.cmd == cmd) {
      return std::vector<std::string>{reply(request, result)};
    }
    return std::vector<std::string>{};
  };
}

TEST_F(Timeout, AReplyThatNeverComesEndsTheCommand) {
  ScriptedDaemon daemon(options.socket, silence);
  expect_timed_out(run("status"), "waiting for the reply to status");
}

TEST_F(Timeout, ConnectingToADaemonThatNeverAcceptsEnds) {
  auto daemon = ScriptedDaemon::never_accepting(options.socket);
  auto ended = run("status");
  expect_timed_out(ended, "cannot connect to numabalancerd at " + options.socket);
}

TEST_F(Timeout, ReconcileWaitsForItsRoundNoLongerThanTheTimeout) {
  ScriptedDaemon daemon(
      options.socket, acknowledges("reconcile", {{"pending", true}, {"round", {{"number", 12}}}}));
  expect_timed_out(run("reconcile"), "waiting for round 12");
}

TEST_F(Timeout, ReconcileWithoutAnAcknowledgementEnds) {
  ScriptedDaemon daemon(options.socket, silence);
  expect_timed_out(run("reconcile"), "waiting for the reply to watch");
}

TEST_F(Timeout, MigrateWhoseDaemonFallsSilentEnds) {
  ScriptedDaemon daemon(options.socket, acknowledges("migrate", {{"job", 3}}));
  expect_timed_out(run("migrate", {"--pid", "42", "--from", "1", "--to", "0"}),
                   "waiting for job 3 to finish");
}

TEST_F(Timeout, WatchWhoseSubscriptionIsNeverAcknowledgedEnds) {
  ScriptedDaemon daemon(options.socket, silence);
  expect_timed_out(run("watch"), "waiting for the reply to watch");
}

TEST_F(Timeout, TopWhoseDaemonNeverAnswersEnds) {
  ScriptedDaemon daemon(options.socket, silence);
  TopOptions top;
  top.socket = options.socket;
  top.timeout = kTimeout;
  ::testing::internal::CaptureStdout();
  auto ended = run_bounded([top] { return run_top(top); });
  ::testing::internal::GetCapturedStdout();
  expect_timed_out(ended, "waiting for the reply to status");
}

// A job may run longer than --timeout: while the daemon says it is still running, migrate
// follows it to its end.
TEST_F(Timeout, MigrateFollowsAJobLongerThanTheTimeoutWhileTheDaemonAnswers) {
  auto script = [](const wire::Request& request) {
    if (request.cmd == "status") {
      return std::vector<std::string>{reply(request, {{"job", {{"id", 3}}}})};
    }
    return acknowledges("migrate", {{"job", 3}})(request);
  };
  json done{{"job", 3},
            {"outcome", "done"},
            {"moved_bytes", 1 << 20},
            {"report", {{"dry_run", false}, {"threshold_met", true}}}};
  ScriptedDaemon daemon(options.socket, script, {{2500ms, event_line("job_done", done)}});
  ::testing::internal::CaptureStdout();
  auto ended = run("migrate", {"--pid", "42", "--from", "1", "--to", "0"});
  auto out = ::testing::internal::GetCapturedStdout();
  ASSERT_TRUE(ended.exit_code.has_value());
  EXPECT_EQ(*ended.exit_code, kOk) << ended.err;
  EXPECT_GE(ended.took, 2500ms);
  EXPECT_THAT(out, HasSubstr("job 3: done, moved 1.0 MiB"));
  EXPECT_THAT(daemon.commands(), ::testing::Contains("status"));
}

}  // namespace
}  // namespace nb::ctl
