#include "daemon/service/history_since.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/time.hpp"
#include "daemon/codec/audit_log.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "daemon/service/export/audit_log.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

using nb::testing::TempTree;
using nlohmann::json;
using ::testing::HasSubstr;

TimePoint at(int minutes) {
  return parse_rfc3339("2026-12-02T10:00:00Z").value() + std::chrono::minutes(minutes);
}

rounds::RoundRecord record(int minutes, std::uint64_t number) {
  rounds::RoundRecord r;
  r.number = number;
  r.time = at(minutes);
  r.trigger = "timer";
  r.status = rounds::RoundStatus::ready;
  r.outcome = rounds::RoundOutcome::started;
  return r;
}

std::vector<std::uint64_t> numbers(const json& list, const char* key) {
  std::vector<std::uint64_t> out;
  for (const auto& item : list) {
    out.push_back(item[key].get<std::uint64_t>());
  }
  return out;
}

class HistorySinceTest : public ::testing::Test {
 protected:
  HistorySinceTest() {
    for (int i = 1; i <= 4; ++i) {
      rounds.push_back(record(i * 10, static_cast<std::uint64_t>(i)));
    }
  }
  TempTree tree;
  std::vector<rounds::RoundRecord> rounds;
  config::ExportConfig export_config;
};

TEST_F(HistorySinceTest, WithoutAuditLogFiltersTheKeptRounds) {
  auto outcome = history_since(json{{"since", "25m"}}, export_config, rounds, at(50));
  ASSERT_TRUE(std::holds_alternative<json>(outcome));
  const auto& result = std::get<json>(outcome);
  EXPECT_EQ(numbers(result["rounds"], "number"), (std::vector<std::uint64_t>{3, 4}));
  EXPECT_EQ(result["since"], "2026-12-02T10:25:00Z");
  EXPECT_FALSE(result.contains("entries"));
}

TEST_F(HistorySinceTest, WithAuditLogReadsItsEntries) {
  export_config.audit_log = tree.path("audit.jsonl").string();
  AuditLog log;
  for (const auto& r : rounds) {
    log.append(export_config, codec::audit_round_entry(r, nullptr));
  }
  auto outcome = history_since(json{{"since", "2026-12-02T10:20:00Z"}}, export_config, {}, at(50));
  ASSERT_TRUE(std::holds_alternative<json>(outcome));
  const auto& result = std::get<json>(outcome);
  EXPECT_EQ(numbers(result["entries"], "round"), (std::vector<std::uint64_t>{2, 3, 4}))
      << "the audit log answers even when memory kept no rounds";
  EXPECT_EQ(result["skipped_lines"], 0);
  EXPECT_EQ(result["audit_log"], export_config.audit_log);
  EXPECT_EQ(result["truncated"], false);
}

TEST_F(HistorySinceTest, WithAuditLogALimitKeepsTheNewestEntries) {
  export_config.audit_log = tree.path("audit.jsonl").string();
  AuditLog log;
  for (const auto& r : rounds) {
    log.append(export_config, codec::audit_round_entry(r, nullptr));
  }
  auto outcome = history_since(json{{"since", "1h"}, {"limit", 2}}, export_config, {}, at(50));
  ASSERT_TRUE(std::holds_alternative<json>(outcome));
  EXPECT_EQ(numbers(std::get<json>(outcome)["entries"], "round"),
            (std::vector<std::uint64_t>{3, 4}));
}

TEST_F(HistorySinceTest, LimitKeepsTheNewest) {
  auto outcome = history_since(json{{"since", "1h"}, {"limit", 2}}, export_config, rounds, at(50));
  ASSERT_TRUE(std::holds_alternative<json>(outcome));
  EXPECT_EQ(numbers(std::get<json>(outcome)["rounds"], "number"),
            (std::vector<std::uint64_t>{3, 4}));
}

struct BadArgs {
  json args;
  const char* message;
};

class HistorySinceRejects : public ::testing::TestWithParam<BadArgs> {};

TEST_P(HistorySinceRejects, BadArgumentsAreABadRequest) {
  auto outcome = history_since(GetParam().args, config::ExportConfig{}, {}, at(0));
  ASSERT_TRUE(std::holds_alternative<wire::ErrorReply>(outcome));
  const auto& error = std::get<wire::ErrorReply>(outcome);
  EXPECT_EQ(error.code, wire::ErrorCode::bad_request);
  EXPECT_THAT(error.message, HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Args, HistorySinceRejects,
    ::testing::Values(BadArgs{json{{"since", 5}}, "must be a duration"},
                      BadArgs{json{{"since", "last week"}}, "neither a duration"},
                      BadArgs{json{{"since", "1h"}, {"limit", 0}}, "positive integer"},
                      BadArgs{json{{"since", "1h"}, {"limit", "3"}}, "positive integer"}));

}  // namespace
}  // namespace nb::service
