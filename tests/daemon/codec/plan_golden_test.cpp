// The golden cases of tests/data/plan, decided through the library exactly as `plan` does:
// NAME.snapshot.json gives NAME.decision.json, or fails with the text of NAME.error.txt.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/decide.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/codec/explain.hpp"
#include "daemon/codec/snapshot_json.hpp"

namespace nb::codec {
namespace {

namespace fs = std::filesystem;

const fs::path kPlanData = fs::path(NB_SOURCE_DIR) / "tests/data/plan";
const TimePoint kUnused = std::chrono::sys_days{std::chrono::year{2000} / 1 / 1};

std::string slurp(const fs::path& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string without_trailing_newline(std::string text) {
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  return text;
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kPlanData)) {
    const std::string file = entry.path().filename().string();
    const std::string suffix = ".snapshot.json";
    if (file.size() > suffix.size() && file.ends_with(suffix)) {
      names.push_back(file.substr(0, file.size() - suffix.size()));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<core::Decision> plan(const std::string& name, bool explain) {
  auto document = parse_snapshot(slurp(kPlanData / (name + ".snapshot.json")), kUnused);
  if (!document.ok()) {
    return document.error();
  }
  auto policy = apply_policy_overrides(core::PolicyConfig{}, document->policy_overrides);
  if (!policy.ok()) {
    return policy.error();
  }
  return core::decide(document->snapshot, *policy, document->history, document->snapshot.time,
                      core::DecideOptions{.explain = explain});
}

class PlanGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(PlanGolden, SnapshotGivesTheExpectedDecisionOrError) {
  const std::string& name = GetParam();
  auto decision = plan(name, false);
  const fs::path error_file = kPlanData / (name + ".error.txt");
  if (fs::exists(error_file)) {
    ASSERT_FALSE(decision.ok());
    EXPECT_EQ(decision.error().message(), without_trailing_newline(slurp(error_file)));
    return;
  }
  ASSERT_TRUE(decision.ok()) << decision.error().message();
  const auto expected =
      nlohmann::json::parse(slurp(kPlanData / (name + ".decision.json")), nullptr, false);
  ASSERT_FALSE(expected.is_discarded()) << name << ".decision.json is not JSON";
  EXPECT_EQ(to_json(*decision), expected) << to_json(*decision).dump(2);
}

TEST_P(PlanGolden, ExplainingDoesNotChangeTheDecision) {
  auto quiet = plan(GetParam(), false);
  auto explained = plan(GetParam(), true);
  ASSERT_EQ(quiet.ok(), explained.ok());
  if (quiet.ok()) {
    EXPECT_EQ(to_json(*quiet), to_json(*explained));
  }
}

INSTANTIATE_TEST_SUITE_P(Files, PlanGolden, ::testing::ValuesIn(case_names()),
                         [](const auto& info) { return info.param; });

TEST(PlanGolden, EveryDataFileIsACase) {
  EXPECT_GE(case_names().size(), 10u);
}

TEST(PlanGolden, FourNodeReportReadsAsExpected) {
  auto decision = plan("four_node_report", true);
  ASSERT_TRUE(decision.ok()) << decision.error().message();
  EXPECT_EQ(format_explanation(*decision), slurp(kPlanData / "four_node_report.explain.txt"));
}

}  // namespace
}  // namespace nb::codec
