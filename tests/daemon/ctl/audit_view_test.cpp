// `history --since` as a table: a row per round and per job of the audit log.

#include "daemon/ctl/audit_view.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/codec/audit_log.hpp"
#include "tests/daemon/ctl/audit_entries.hpp"

namespace nb::ctl {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using testing::job_entry;
using testing::minutes_ago;
using ::testing::Not;
using testing::round_entry;

TEST(AuditView, ShowsRoundsAndJobsAsRows) {
  json result{{"entries", {round_entry(minutes_ago(5), 12), job_entry(minutes_ago(4), 12)}},
              {"skipped_lines", 1}};
  auto text = format_audit_entries(result);
  EXPECT_THAT(text, HasSubstr("KIND"));
  EXPECT_THAT(text, HasSubstr("node 1 under force pressure"));
  EXPECT_THAT(text, HasSubstr("512.0 MiB"));
  EXPECT_THAT(text, HasSubstr("job 9"));
  EXPECT_THAT(text, HasSubstr("threshold not met"));
  EXPECT_THAT(text, HasSubstr("1 unreadable lines skipped"));
}

TEST(AuditView, ShowsWhoRanACommandAndWhyItFailed) {
  codec::CommandAudit pause{"pause", "socket", json::object(), 1000, 4242, std::nullopt};
  codec::CommandAudit reload{
      "reload",     "SIGHUP",     json::object(),
      std::nullopt, std::nullopt, "configuration rejected, the old one stays:\n  bogus_key"};
  json result{{"entries",
               {codec::audit_command_entry(minutes_ago(3), pause),
                codec::audit_command_entry(minutes_ago(2), reload)}},
              {"skipped_lines", 0}};
  auto text = format_audit_entries(result);
  EXPECT_THAT(text, HasSubstr("pause"));
  EXPECT_THAT(text, HasSubstr("by uid 1000 pid 4242"));
  EXPECT_THAT(text, HasSubstr("on SIGHUP: configuration rejected, the old one stays:   bogus_key"));
  EXPECT_THAT(text, Not(HasSubstr("round "))) << "a command is not shown as a round";
}

TEST(AuditView, NoSkippedLinesNoFootnote) {
  auto text = format_audit_entries(json{{"entries", json::array()}, {"skipped_lines", 0}});
  EXPECT_THAT(text, Not(HasSubstr("skipped")));
  EXPECT_THAT(text, Not(HasSubstr("older entries")));
  EXPECT_THAT(text, HasSubstr("no entries in the audit log yet"));
}

TEST(AuditView, TruncatedReadSaysOlderEntriesWereNotRead) {
  json result{
      {"entries", {round_entry(minutes_ago(5), 12)}}, {"skipped_lines", 0}, {"truncated", true}};
  EXPECT_THAT(format_audit_entries(result), HasSubstr("older entries were not read"));
}

}  // namespace
}  // namespace nb::ctl
