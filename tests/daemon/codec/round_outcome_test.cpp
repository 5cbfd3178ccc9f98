#include "daemon/rounds/round_outcome.hpp"

#include <gtest/gtest.h>

namespace nb::codec {
namespace {

TEST(RoundOutcome, DecidedStatusesReadAsTheDecisionSaysThem) {
  for (auto status : {core::DecisionStatus::ready, core::DecisionStatus::idle,
                      core::DecisionStatus::cooldown, core::DecisionStatus::no_metrics,
                      core::DecisionStatus::calibrating, core::DecisionStatus::failed}) {
    EXPECT_EQ(rounds::to_string(rounds::round_status(status)), core::to_string(status));
  }
}

TEST(RoundOutcome, EveryNameReadsBack) {
  for (auto status :
       {rounds::RoundStatus::scanning, rounds::RoundStatus::manual, rounds::RoundStatus::ready,
        rounds::RoundStatus::idle, rounds::RoundStatus::cooldown, rounds::RoundStatus::no_metrics,
        rounds::RoundStatus::calibrating, rounds::RoundStatus::failed}) {
    EXPECT_EQ(rounds::round_status_named(to_string(status)), status);
  }
  for (auto outcome :
       {rounds::RoundOutcome::pending, rounds::RoundOutcome::none, rounds::RoundOutcome::paused,
        rounds::RoundOutcome::dry_run, rounds::RoundOutcome::deferred,
        rounds::RoundOutcome::reported, rounds::RoundOutcome::started, rounds::RoundOutcome::done,
        rounds::RoundOutcome::partial, rounds::RoundOutcome::cancelled,
        rounds::RoundOutcome::failed}) {
    EXPECT_EQ(rounds::round_outcome_named(to_string(outcome)), outcome);
  }
}

TEST(RoundOutcome, EarlyStateFilesSayActedForDone) {
  EXPECT_EQ(rounds::round_outcome_named("acted"), rounds::RoundOutcome::done);
  EXPECT_FALSE(rounds::round_outcome_named("running").has_value());
  EXPECT_FALSE(rounds::round_status_named("").has_value());
}

}  // namespace
}  // namespace nb::codec
