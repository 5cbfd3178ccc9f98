// Who changed the daemon: each state-changing command over the socket (and a SIGHUP reload) logs
// one line with the peer's uid and pid and the result, and appends a "command" entry to the
// audit log. Before, a successful reload over the socket logged nothing, and none of them reached
// the audit log.

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <thread>

#include "daemon/wire/audit_log_reader.hpp"
#include "tests/daemon/service/daemon_harness.hpp"
#include "tests/support/captured_log.hpp"

namespace nb::service {
namespace {

using namespace std::chrono_literals;
using nb::testing::CapturedLog;
using nb::testing::DaemonHarness;
using nb::testing::SocketClient;
using nb::testing::TempTree;
using nlohmann::json;
using ::testing::HasSubstr;

class DaemonAuditTest : public ::testing::Test {
 protected:
  DaemonAuditTest() : daemon(tree) {
    tree.make_dir("cg/pods/a");
    audit_log = tree.make_dir("audit") / "audit.jsonl";
    daemon.config().export_.audit_log = audit_log.string();
    daemon.options().config_file = write_config("");
  }

  // A config a reload accepts (or, with `extra` an unknown key, rejects) that keeps the log.
  std::filesystem::path write_config(const std::string& extra) {
    return tree.make_file(
        "config.toml",
        "[daemon]\nstate_dir = \"" + tree.path("state").string() + "\"\nlock_file = \"" +
            tree.path("run/numabalancerd.lock").string() + "\"\ninterval = \"1h\"\n" + extra +
            "\n[admin]\nsocket = \"" + tree.path("run/admin.sock").string() +
            "\"\nadmin_group = \"\"\n[export]\naudit_log = \"" + audit_log.string() + "\"\n");
  }

  std::vector<json> command_entries() {
    std::vector<json> found;
    auto read = wire::read_audit_log(audit_log, std::nullopt);
    EXPECT_TRUE(read.ok());
    for (auto& entry : read->entries) {
      if (entry["kind"] == "command") {
        found.push_back(std::move(entry));
      }
    }
    return found;
  }

  TempTree tree;
  DaemonHarness daemon;
  std::filesystem::path audit_log;
};

struct Expected {
  const char* command;
  json args;
  const char* error;  // "" when it must succeed
};

TEST_F(DaemonAuditTest, EachStateChangingCommandLogsALineAndAnEntryWithThePeer) {
  CapturedLog log;
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  const std::vector<Expected> commands = {
      {"pause", json::object(), ""},
      {"resume", json::object(), ""},
      {"dry_run", {{"enabled", true}}, ""},
      {"dry_run", {{"enabled", false}}, ""},
      {"cancel", json::object(), "no migration job is running"},
      {"migrate", {{"cgroup", "pods/a"}, {"from", 1}, {"to", "0"}, {"dry_run", true}}, ""},
      {"reload", json::object(), ""},
  };
  for (const auto& expected : commands) {
    auto reply = client.call(expected.command, expected.args);
    ASSERT_EQ(reply["ok"], std::string(expected.error).empty()) << reply.dump();
    if (std::string(expected.command) == "migrate") {
      ASSERT_TRUE(daemon.wait_until_idle());
    }
  }
  ASSERT_EQ(client.call("status")["ok"], true);  // read-only: not audited

  const std::string peer = "over the admin socket by uid " + std::to_string(::getuid()) + " pid " +
                           std::to_string(::getpid());
  EXPECT_EQ(log.count("pause " + peer + ": ok"), 1u);
  EXPECT_EQ(log.count("resume " + peer + ": ok"), 1u);
  EXPECT_EQ(log.count("dry_run {\"enabled\":true} " + peer + ": ok"), 1u);
  EXPECT_EQ(log.count("cancel " + peer + ": failed: no migration job is running"), 1u);
  EXPECT_EQ(log.count("reload " + peer + ": ok"), 1u) << "a good reload over the socket too";
  EXPECT_EQ(log.count(" " + peer + ": "), commands.size()) << "one line per command";

  auto entries = command_entries();
  ASSERT_EQ(entries.size(), commands.size());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const json& entry = entries[i];
    const Expected& expected = commands[i];
    EXPECT_EQ(entry["command"], expected.command);
    EXPECT_EQ(entry["via"], "socket");
    EXPECT_EQ(entry["uid"], ::getuid());
    EXPECT_EQ(entry["pid"], ::getpid());
    EXPECT_EQ(entry["args"], expected.args);
    if (std::string(expected.error).empty()) {
      EXPECT_EQ(entry["result"], "ok") << entry.dump();
      EXPECT_TRUE(entry["error"].is_null()) << entry.dump();
    } else {
      EXPECT_EQ(entry["result"], "failed") << entry.dump();
      EXPECT_EQ(entry["error"], expected.error);
    }
  }
}

TEST_F(DaemonAuditTest, ARejectedReloadRecordsWhy) {
  CapturedLog log;
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  write_config("bogus_key = 1");
  ASSERT_EQ(client.call("reload")["ok"], false);

  auto entries = command_entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0]["result"], "failed");
  EXPECT_THAT(entries[0]["error"].get<std::string>(), HasSubstr("bogus_key"));
  EXPECT_EQ(log.count("reload over the admin socket by uid"), 1u);
  EXPECT_EQ(log.count("failed: configuration rejected, the old one stays: "), 1u)
      << "the problems follow on the same line";
}

TEST_F(DaemonAuditTest, SighupReloadIsLoggedAndAuditedWithItsSender) {
  CapturedLog log;
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  ASSERT_EQ(::kill(::getpid(), SIGHUP), 0);
  std::vector<json> entries;
  for (int i = 0; i < 200 && entries.empty(); ++i) {
    std::this_thread::sleep_for(10ms);
    entries = command_entries();
  }
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0]["command"], "reload");
  EXPECT_EQ(entries[0]["via"], "SIGHUP");
  EXPECT_EQ(entries[0]["uid"], ::getuid()) << "the signal's sender: this process";
  EXPECT_EQ(entries[0]["pid"], ::getpid());
  EXPECT_EQ(entries[0]["result"], "ok");
  EXPECT_EQ(
      log.count(fmt::format("reload on SIGHUP from uid {} pid {}: ok", ::getuid(), ::getpid())),
      1u);
}

}  // namespace
}  // namespace nb::service
