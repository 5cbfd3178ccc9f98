// The newest audit entries, read backwards: what stops the read (limit, `since`, the byte cap)
// and that the entries still come oldest first.

#include <gtest/gtest.h>

#include <fstream>

#include "base/time.hpp"
#include "daemon/wire/audit_log_reader.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::wire {
namespace {

using nb::testing::TempTree;

TimePoint at(int seconds) {
  return parse_rfc3339("2026-12-02T10:00:00Z").value() + std::chrono::seconds(seconds);
}

std::string round_line(int seconds, int number) {
  return "{\"time\":\"" + format_rfc3339(at(seconds)) +
         "\",\"kind\":\"round\",\"round\":" + std::to_string(number) + "}\n";
}

std::vector<int> rounds_of(const AuditTail& read) {
  std::vector<int> rounds;
  for (const auto& entry : read.entries) {
    rounds.push_back(entry["round"].get<int>());
  }
  return rounds;
}

TEST(AuditLogTail, NewestEntriesAcrossTheRotationOldestFirst) {
  TempTree tree;
  auto file = tree.path("audit.jsonl");
  std::ofstream(rotated_audit_log(file)) << round_line(0, 1) << round_line(60, 2);
  std::ofstream(file) << round_line(120, 3) << round_line(180, 4);
  auto read = read_audit_log_tail(file, std::nullopt, 3, SIZE_MAX);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(rounds_of(*read), (std::vector<int>{2, 3, 4}));
  EXPECT_FALSE(read->truncated);
}

TEST(AuditLogTail, StopsAtTheFirstLineOlderThanSince) {
  TempTree tree;
  auto file = tree.path("audit.jsonl");
  std::ofstream(rotated_audit_log(file)) << "garbage that is never read\n";
  std::ofstream(file) << round_line(0, 1) << round_line(60, 2) << round_line(120, 3);
  auto read = read_audit_log_tail(file, at(60), SIZE_MAX, SIZE_MAX);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(rounds_of(*read), (std::vector<int>{2, 3}));
  EXPECT_EQ(read->skipped_lines, 0u) << "the rotated file is not reached";
  EXPECT_FALSE(read->truncated);
}

TEST(AuditLogTail, StopsAtTheLimitWithoutReadingOlderLines) {
  TempTree tree;
  auto file = tree.path("audit.jsonl");
  std::ofstream out(file);
  for (int i = 0; i < 1000; ++i) {
    out << "not an entry\n";
  }
  out << round_line(0, 1) << round_line(60, 2) << round_line(120, 3);
  out.close();
  auto read = read_audit_log_tail(file, std::nullopt, 2, SIZE_MAX);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(rounds_of(*read), (std::vector<int>{2, 3}));
  EXPECT_EQ(read->skipped_lines, 0u);
}

TEST(AuditLogTail, ByteCapEndsTheReadAndSaysSo) {
  TempTree tree;
  auto file = tree.path("audit.jsonl");
  std::ofstream out(file);
  for (int i = 0; i < 20000; ++i) {
    out << round_line(i, i);
  }
  out.close();
  auto read = read_audit_log_tail(file, at(0), SIZE_MAX, 64 * 1024);
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->truncated);
  ASSERT_FALSE(read->entries.empty());
  EXPECT_LT(read->entries.size(), 20000u);
  EXPECT_EQ(read->entries.back()["round"], 19999);
  EXPECT_EQ(read->skipped_lines, 0u) << "the line cut by the cap is not counted as garbage";
}

TEST(AuditLogTail, TornLastLineIsSkipped) {
  TempTree tree;
  auto file = tree.path("audit.jsonl");
  std::ofstream(file) << round_line(0, 1) << "{\"time\":\"2026-12-02T11:00:00Z\",\"kind\":\"rou";
  auto read = read_audit_log_tail(file, std::nullopt, SIZE_MAX, SIZE_MAX);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(rounds_of(*read), (std::vector<int>{1}));
  EXPECT_EQ(read->skipped_lines, 1u);
}

TEST(AuditLogTail, MissingFilesHaveNoEntries) {
  TempTree tree;
  auto read = read_audit_log_tail(tree.path("absent.jsonl"), std::nullopt, SIZE_MAX, SIZE_MAX);
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->entries.empty());
  EXPECT_FALSE(read->truncated);
}

}  // namespace
}  // namespace nb::wire
