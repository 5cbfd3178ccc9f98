// Reading the audit log: which lines count as entries, the rotated generation first, and what
// `--since` accepts.

#include "daemon/wire/audit_log_reader.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "base/time.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::wire {
namespace {

using nb::testing::TempTree;
using ::testing::HasSubstr;

TimePoint at(int seconds) {
  return parse_rfc3339("2026-12-02T10:00:00Z").value() + std::chrono::seconds(seconds);
}

std::string round_line(int seconds, int number) {
  return "{\"time\":\"" + format_rfc3339(at(seconds)) +
         "\",\"kind\":\"round\",\"round\":" + std::to_string(number) + "}\n";
}

std::vector<int> rounds_of(const AuditEntries& read) {
  std::vector<int> rounds;
  for (const auto& entry : read.entries) {
    rounds.push_back(entry["round"].get<int>());
  }
  return rounds;
}

TEST(ReadAuditLog, RotatedGenerationComesFirst) {
  TempTree tree;
  auto file = tree.path("audit.jsonl");
  std::ofstream(rotated_audit_log(file)) << round_line(0, 1) << round_line(60, 2);
  std::ofstream(file) << round_line(120, 3);
  auto read = read_audit_log(file, std::nullopt);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(rounds_of(*read), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(read->skipped_lines, 0u);
}

TEST(ReadAuditLog, OldEntriesAreLeftOutAndGarbageIsCounted) {
  TempTree tree;
  auto file = tree.path("audit.jsonl");
  std::ofstream(file) << round_line(0, 1) << "\n"
                      << round_line(200, 2) << "not json\n"
                      << "{\"time\":\"garbage\"}\n"
                      << "{\"time\":\"2026-12-02T11:00:00Z\",\"no_kind\":1}\n"
                      << "{\"time\":\"2026-12-02T11:00:00Z\",\"kind\":\"rou";
  auto read = read_audit_log(file, at(100));
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(rounds_of(*read), (std::vector<int>{2}));
  EXPECT_EQ(read->skipped_lines, 4u);
}

TEST(ReadAuditLog, MissingFilesHaveNoEntries) {
  TempTree tree;
  auto read = read_audit_log(tree.path("absent.jsonl"), std::nullopt);
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->entries.empty());
  EXPECT_EQ(read->skipped_lines, 0u);
}

TEST(ReadAuditLog, RotatedNameAddsDotOne) {
  EXPECT_EQ(rotated_audit_log("/var/lib/nb/audit.jsonl"), "/var/lib/nb/audit.jsonl.1");
}

struct SinceCase {
  const char* text;
  std::optional<int> seconds_before_now;  // nothing: an error
};

class ParseSince : public ::testing::TestWithParam<SinceCase> {};

TEST_P(ParseSince, DurationsCountBackFromNowAndTimesAreAbsolute) {
  const auto now = at(100000);
  auto parsed = wire::parse_since(GetParam().text, now);
  if (!GetParam().seconds_before_now) {
    ASSERT_FALSE(parsed.ok()) << GetParam().text;
    EXPECT_THAT(parsed.error().message(), HasSubstr("neither a duration"));
    return;
  }
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(now - parsed.value(), std::chrono::seconds(*GetParam().seconds_before_now));
}

INSTANTIATE_TEST_SUITE_P(
    Texts, ParseSince,
    ::testing::Values(SinceCase{"90s", 90}, SinceCase{"15m", 900}, SinceCase{"2h", 7200},
                      SinceCase{"2026-12-02T10:00:00Z", 100000},
                      SinceCase{"2026-12-02T11:00:00+01:00", 100000}, SinceCase{"30", std::nullopt},
                      SinceCase{"yesterday", std::nullopt}, SinceCase{"", std::nullopt}));

}  // namespace
}  // namespace nb::wire
