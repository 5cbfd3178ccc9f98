#include "daemon/codec/round_outcome.hpp"

#include <gtest/gtest.h>

namespace nb::codec {
namespace {

TEST(RoundOutcome, DecidedStatusesReadAsTheDecisionSaysThem) {
  for (auto status : {core::DecisionStatus::ready, core::DecisionStatus::idle,
                      core::DecisionStatus::cooldown, core::DecisionStatus::no_metrics,
                      core::DecisionStatus::calibrating, core::DecisionStatus::failed}) {
    EXPECT_EQ(to_string(round_status(status)), core::to_string(status));
  }
}

TEST(RoundOutcome, EveryNameReadsBack) {
  for (auto status : {RoundStatus::scanning, RoundStatus::manual, RoundStatus::ready,
                      RoundStatus::idle, RoundStatus::cooldown, RoundStatus::no_metrics,
                      RoundStatus::calibrating, RoundStatus::failed}) {
    EXPECT_EQ(round_status_named(to_string(status)), status);
  }
  for (auto outcome :
       {RoundOutcome::pending, RoundOutcome::none, RoundOutcome::paused, RoundOutcome::dry_run,
        RoundOutcome::deferred, RoundOutcome::reported, RoundOutcome::started, RoundOutcome::done,
        RoundOutcome::partial, RoundOutcome::cancelled, RoundOutcome::failed}) {
    EXPECT_EQ(round_outcome_named(to_string(outcome)), outcome);
  }
}

TEST(RoundOutcome, EarlyStateFilesSayActedForDone) {
  EXPECT_EQ(round_outcome_named("acted"), RoundOutcome::done);
  EXPECT_FALSE(round_outcome_named("running").has_value());
  EXPECT_FALSE(round_status_named("").has_value());
}

}  // namespace
}  // namespace nb::codec
