// `numabalancerctl history --since` and `--audit-log`: the audit log as an operator reads it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "daemon/codec/audit_log.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "tests/daemon/ctl/audit_entries.hpp"
#include "tests/daemon/service/running_daemon.hpp"

namespace nb::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class CtlHistoryFromFile : public ::testing::Test {
 protected:
  CtlHistoryFromFile() {
    std::ofstream out(file);
    out << codec::to_audit_line(round_entry(minutes_ago(180), 1))
        << codec::to_audit_line(round_entry(minutes_ago(30), 2))
        << codec::to_audit_line(job_entry(minutes_ago(29), 2)) << R"({"time":"20)";
  }
  std::unique_ptr<ChildProcess> ctl(std::vector<std::string> args) {
    args.insert(args.begin(), binary("numabalancerctl"));
    // No daemon runs: --audit-log must not need one.
    args.insert(args.begin() + 1, {"--socket", tree.path("none.sock").string()});
    return std::make_unique<ChildProcess>(args, tree.root());
  }
  TempTree tree;
  std::filesystem::path file = tree.path("audit.jsonl");
};

TEST_F(CtlHistoryFromFile, SinceDurationLeavesOutOlderEntries) {
  auto run = ctl({"history", "--audit-log", file.string(), "--since", "1h", "--json"});
  ASSERT_EQ(run->exit_code(), 0) << run->err();
  auto result = json::parse(run->out());
  ASSERT_EQ(result["entries"].size(), 2u);
  EXPECT_EQ(result["entries"][0]["round"], 2);
  EXPECT_EQ(result["entries"][1]["kind"], "job");
  EXPECT_EQ(result["skipped_lines"], 1) << "the torn last line";
}

TEST_F(CtlHistoryFromFile, WithoutSinceShowsEverythingAsATable) {
  auto run = ctl({"history", "--audit-log", file.string()});
  ASSERT_EQ(run->exit_code(), 0) << run->err();
  EXPECT_THAT(run->out(), HasSubstr("TIME"));
  EXPECT_THAT(run->out(), HasSubstr("job 9"));
  EXPECT_THAT(run->out(), HasSubstr("1 unreadable lines skipped"));
}

TEST_F(CtlHistoryFromFile, LimitKeepsTheNewest) {
  auto run = ctl({"history", "--audit-log", file.string(), "-n", "1", "--json"});
  ASSERT_EQ(run->exit_code(), 0) << run->err();
  auto result = json::parse(run->out());
  ASSERT_EQ(result["entries"].size(), 1u);
  EXPECT_EQ(result["entries"][0]["kind"], "job");
}

TEST_F(CtlHistoryFromFile, BadSinceIsBadUsage) {
  auto run = ctl({"history", "--audit-log", file.string(), "--since", "a while"});
  EXPECT_EQ(run->exit_code(), 2);
  EXPECT_THAT(run->err(), HasSubstr("neither a duration"));
}

TEST_F(CtlHistoryFromFile, SinceAsksTheDaemonWhenNoFileIsGiven) {
  auto run = ctl({"history", "--since", "1h"});
  EXPECT_EQ(run->exit_code(), 2) << "no daemon at the socket";
  EXPECT_THAT(run->err(), HasSubstr("none.sock"));
}

}  // namespace
}  // namespace nb::testing
