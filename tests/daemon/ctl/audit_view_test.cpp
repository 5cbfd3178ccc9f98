// `history --since` as a table: a row per round and per job of the audit log.

#include "daemon/ctl/audit_view.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/codec/audit_log.hpp"
#include "daemon/codec/state_file.hpp"
#include "daemon/ctl/result_views.hpp"
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

TEST(AuditView, ASighupNamesItsSenderWhenKnown) {
  codec::CommandAudit reload{"reload", "SIGHUP", json::object(), 0, 777, std::nullopt};
  json result{{"entries", {codec::audit_command_entry(minutes_ago(1), reload)}},
              {"skipped_lines", 0}};
  EXPECT_THAT(format_audit_entries(result), HasSubstr("on SIGHUP from uid 0 pid 777"));
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

// The same round, kept by the daemon or read from the audit log, is the same row: the audit entry
// carries the decision where the kept round has fields of its own. Only MOVED differs: the log
// gives a round's moved bytes in its job's entry, so the round's own row has none.
TEST(AuditView, ARoundReadsTheSameKeptOrFromTheAuditLog) {
  rounds::RoundRecord record;
  record.number = 12;
  record.time = minutes_ago(5);
  record.trigger = "timer";
  record.status = rounds::RoundStatus::ready;
  record.outcome = rounds::RoundOutcome::dry_run;
  record.reason = "node 1 under force pressure";
  record.source_node = 1;
  record.dest_nodes = {0, 2};
  record.containers = {"pods/a", "pods/b"};
  record.planned_bytes = 512 * kMiB;
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.reason = record.reason;
  decision.source_node = 1;
  decision.dest_nodes = {0, 2};
  decision.migrate = {core::ContainerMove{"pods/a", 256 * kMiB, {0}},
                      core::ContainerMove{"pods/b", 256 * kMiB, {2}}};
  decision.total_bytes = 512 * kMiB;

  auto kept = format_history(json{{"rounds", {codec::to_json(record)}}});
  auto audited = format_history(
      json{{"entries", {codec::audit_round_entry(record, &decision)}}, {"skipped_lines", 0}});
  std::string kept_without_moved = kept;
  const std::string moved_cell = "  0 B    ";
  ASSERT_NE(kept.find(moved_cell), std::string::npos) << kept;
  kept_without_moved.replace(kept.find(moved_cell), moved_cell.size(), "  -      ");
  EXPECT_EQ(audited, kept_without_moved);
  EXPECT_THAT(kept, HasSubstr("pods/a,pods/b"));
  EXPECT_THAT(kept, HasSubstr("0,2"));
  EXPECT_THAT(kept, HasSubstr("node 1 under force pressure"));
}

}  // namespace
}  // namespace nb::ctl
