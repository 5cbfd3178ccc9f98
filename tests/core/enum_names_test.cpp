// Every policy enum's names read back, and the last value of each has a name of its own (a value
// appended to an enum without one would read as "unknown").

#include <gtest/gtest.h>

#include "core/decision.hpp"
#include "core/latency_kind.hpp"
#include "core/threshold_mode.hpp"

namespace nb::core {
namespace {

TEST(PolicyNames, DecisionStatusesAndLevelsHaveNamesOfTheirOwn) {
  EXPECT_EQ(to_string(DecisionStatus::ready), "ready");
  EXPECT_EQ(to_string(DecisionStatus::calibrating), "calibrating");
  EXPECT_EQ(to_string(DecisionStatus::failed), "failed");
  EXPECT_EQ(to_string(PressureLevel::force), "force");
  EXPECT_EQ(to_string(BandwidthLevel::low), "low");
  EXPECT_EQ(to_string(static_cast<DecisionStatus>(99)), "unknown");
}

TEST(PolicyNames, LatencyKindsReadBack) {
  for (auto kind : {LatencyKind::memory_controller_queue, LatencyKind::cache_miss,
                    LatencyKind::load_to_use, LatencyKind::external}) {
    EXPECT_NE(to_string(kind), "unknown");
    EXPECT_EQ(latency_kind_from(to_string(kind)), kind);
  }
  EXPECT_FALSE(latency_kind_from("queue").has_value());
}

TEST(PolicyNames, ThresholdModesReadBackAndAutoIsWrittenShort) {
  EXPECT_EQ(to_string(ThresholdMode::automatic), "auto");
  for (auto mode : {ThresholdMode::automatic, ThresholdMode::absolute, ThresholdMode::relative}) {
    EXPECT_EQ(threshold_mode_from(to_string(mode)), mode);
  }
  EXPECT_FALSE(threshold_mode_from("automatic").has_value());
}

}  // namespace
}  // namespace nb::core
