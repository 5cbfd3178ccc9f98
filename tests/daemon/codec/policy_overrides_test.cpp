#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/codec/policy_overrides.hpp"

namespace nb::codec {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(PolicyOverrides, EmptyOverridesKeepTheBase) {
  core::PolicyConfig base;
  base.force_read_latency_ns = 150;
  auto policy = apply_policy_overrides(base, json::object());
  ASSERT_TRUE(policy.ok()) << policy.error().message();
  EXPECT_EQ(policy->force_read_latency_ns, 150);
}

TEST(PolicyOverrides, OverridesApplyOnTopOfTheBase) {
  core::PolicyConfig base;
  base.force_read_latency_ns = 200;
  base.grace_read_latency_ns = 100;
  auto policy = apply_policy_overrides(base, {{"grace_read_latency_ns", 90},
                                              {"grace_max_distance", 12},
                                              {"supported_pools", {"share", "batch"}},
                                              {"reclaim_pool", "spare"},
                                              {"migrate_threshold", 0.5}});
  ASSERT_TRUE(policy.ok()) << policy.error().message();
  EXPECT_EQ(policy->force_read_latency_ns, 200);
  EXPECT_EQ(policy->grace_read_latency_ns, 90);
  EXPECT_EQ(policy->grace_max_distance, 12);
  EXPECT_EQ(policy->supported_pools, (std::vector<std::string>{"share", "batch"}));
  EXPECT_EQ(policy->reclaim_pool, "spare");
  EXPECT_EQ(policy->migrate_threshold, 0.5);
}

TEST(PolicyOverrides, SizesAreBytesOrSizeStrings) {
  auto policy =
      apply_policy_overrides({}, {{"round_max_bytes", "4GiB"}, {"container_min_bytes", 1048576}});
  ASSERT_TRUE(policy.ok()) << policy.error().message();
  EXPECT_EQ(policy->round_max_bytes, 4 * kGiB);
  EXPECT_EQ(policy->container_min_bytes, kMiB);
}

TEST(PolicyOverrides, DurationsAreDurationStrings) {
  auto policy = apply_policy_overrides({}, {{"min_interval", "45s"}, {"ping_pong_window", "1h"}});
  ASSERT_TRUE(policy.ok()) << policy.error().message();
  EXPECT_EQ(policy->min_interval, 45s);
  EXPECT_EQ(policy->ping_pong_window, 1h);
}

TEST(PolicyOverrides, ThresholdModeAndLatencyRatios) {
  auto policy = apply_policy_overrides({}, {{"threshold_mode", "relative"},
                                            {"grace_latency_ratio", 1.2},
                                            {"force_latency_ratio", 2},
                                            {"grace_latency_gap_ratio", 0}});
  ASSERT_TRUE(policy.ok()) << policy.error().message();
  EXPECT_EQ(policy->threshold_mode, core::ThresholdMode::relative);
  EXPECT_EQ(policy->grace_latency_ratio, 1.2);
  EXPECT_EQ(policy->force_latency_ratio, 2.0);
  EXPECT_EQ(policy->grace_latency_gap_ratio, 0.0);
  for (auto mode : {core::ThresholdMode::automatic, core::ThresholdMode::absolute}) {
    auto named = apply_policy_overrides({}, {{"threshold_mode", core::to_string(mode)}});
    ASSERT_TRUE(named.ok()) << named.error().message();
    EXPECT_EQ(named->threshold_mode, mode);
  }
}

TEST(PolicyOverrides, ThresholdModeIsWrittenByItsName) {
  core::PolicyConfig policy;
  policy.threshold_mode = core::ThresholdMode::relative;
  const json written = policy_overrides_json(policy);
  EXPECT_EQ(written["threshold_mode"], "relative");
  EXPECT_EQ(written["grace_latency_ratio"], 1.3);
  auto read_back = apply_policy_overrides({}, written);
  ASSERT_TRUE(read_back.ok()) << read_back.error().message();
  EXPECT_EQ(read_back->threshold_mode, core::ThresholdMode::relative);
}

struct BadOverride {
  const char* name;
  json overrides;
  const char* error_start;
};

// Without it gtest prints the struct's bytes, padding included (valgrind: uninitialised).
void PrintTo(const BadOverride& c, std::ostream* os) {
  *os << c.name;
}

class PolicyOverridesReject : public ::testing::TestWithParam<BadOverride> {};

TEST_P(PolicyOverridesReject, NamingTheKey) {
  auto policy = apply_policy_overrides({}, GetParam().overrides);
  ASSERT_FALSE(policy.ok());
  EXPECT_THAT(policy.error().message(), StartsWith(GetParam().error_start));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PolicyOverridesReject,
    ::testing::Values(
        BadOverride{"UnknownKey", {{"speed", 1}}, "config.policy.speed: unknown key"},
        BadOverride{"NotAnObject", json::array(), "config.policy: expected an object, got array"},
        BadOverride{"NumberAsString",
                    {{"grace_gap_ratio", "0.1"}},
                    "config.policy.grace_gap_ratio: expected a number, got string"},
        BadOverride{"FractionalDistance",
                    {{"grace_max_distance", 19.5}},
                    "config.policy.grace_max_distance: expected an integer, got 19.5"},
        BadOverride{"DecimalSizeUnit",
                    {{"round_max_bytes", "12GB"}},
                    "config.policy.round_max_bytes: invalid size \"12GB\""},
        BadOverride{"NegativeSize",
                    {{"round_max_bytes", -1}},
                    "config.policy.round_max_bytes: must not be negative, got -1"},
        BadOverride{"SizeAsBoolean",
                    {{"round_max_bytes", true}},
                    "config.policy.round_max_bytes: expected a size"},
        BadOverride{"DurationAsNumber",
                    {{"min_interval", 30}},
                    "config.policy.min_interval: expected a duration string such as \"30s\", "
                    "got number"},
        BadOverride{"DurationWithoutUnit",
                    {{"min_interval", "30"}},
                    "config.policy.min_interval: invalid duration \"30\""},
        BadOverride{"UnknownThresholdMode",
                    {{"threshold_mode", "ratio"}},
                    "config.policy.threshold_mode: must be one of auto, absolute, relative, not "
                    "\"ratio\""},
        BadOverride{"ThresholdModeNotAString",
                    {{"threshold_mode", 1}},
                    "config.policy.threshold_mode: expected a string, got number"},
        BadOverride{"GraceLatencyRatioAtOne",
                    {{"grace_latency_ratio", 1}},
                    "config.policy.grace_latency_ratio: must be above 1, got 1"},
        BadOverride{"GraceLatencyRatioAboveForce",
                    {{"grace_latency_ratio", 1.4}, {"force_latency_ratio", 1.35}},
                    "config.policy.grace_latency_ratio: must not exceed force_latency_ratio "
                    "(1.35)"},
        BadOverride{"ForceLatencyRatioZero",
                    {{"force_latency_ratio", 0}},
                    "config.policy.force_latency_ratio: must be positive"},
        BadOverride{"NegativeLatencyGapRatio",
                    {{"grace_latency_gap_ratio", -0.4}},
                    "config.policy.grace_latency_gap_ratio: must not be negative"},
        BadOverride{"LatencyRatioAsString",
                    {{"grace_latency_ratio", "1.3"}},
                    "config.policy.grace_latency_ratio: expected a number, got string"},
        BadOverride{"PoolNameNotAString",
                    {{"supported_pools", {"share", 3}}},
                    "config.policy.supported_pools[1]: expected a string, got number"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(PolicyOverrides, ResultIsValidatedAsAWhole) {
  core::PolicyConfig base;
  base.force_read_latency_ns = 60;
  auto policy = apply_policy_overrides(base, {{"grace_read_latency_ns", 65}});
  ASSERT_FALSE(policy.ok());
  EXPECT_THAT(policy.error().message(),
              StartsWith("config.policy.grace_read_latency_ns: must not exceed"));
}

TEST(PolicyOverrides, OutOfRangeRatioIsRejectedByTheConfigRules) {
  auto policy = apply_policy_overrides({}, {{"grace_gap_ratio", -0.5}});
  ASSERT_FALSE(policy.ok());
  EXPECT_THAT(policy.error().message(), HasSubstr("config.policy.grace_gap_ratio: "));
}

}  // namespace
}  // namespace nb::codec
