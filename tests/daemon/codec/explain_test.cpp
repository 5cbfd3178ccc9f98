#include "daemon/codec/explain.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace nb::codec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(Explain, ReadyDecisionReadsAsVerdictReasoningAndPlan) {
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.level = core::PressureLevel::force;
  decision.bandwidth_level = core::BandwidthLevel::high;
  decision.source_node = 0;
  decision.dest_nodes = {1, 3};
  decision.migrate = {{"a.scope", 3 * kGiB / 2, {1, 3}}, {"b.scope", 512 * kMiB, {3}}};
  decision.evict = {{"c.scope", 16 * kGiB}};
  decision.total_bytes = 2 * kGiB;
  decision.explanation = {"pressure: force, node 0 read latency 142.5 ns > 80"};
  EXPECT_EQ(format_explanation(decision),
            "Decision: ready, force pressure, bandwidth high\n"
            "Why:\n"
            "  pressure: force, node 0 read latency 142.5 ns > 80\n"
            "Plan: 2 GiB from node 0 to nodes 1, 3 (actuator threshold 0.7)\n"
            "  1. migrate a.scope, 1.5 GiB to nodes 1, 3\n"
            "  2. migrate b.scope, 512 MiB to node 3\n"
            "  evict c.scope, 16 GiB on node 0\n");
}

TEST(Explain, EvictOnlyPlanListsTheEviction) {
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.source_node = 2;
  decision.evict = {{"c.scope", 2 * kGiB}};
  EXPECT_THAT(format_explanation(decision), HasSubstr("Plan:\n  evict c.scope, 2 GiB on node 2\n"));
}

TEST(Explain, IdleDecisionHasNoPlan) {
  core::Decision decision;
  decision.status = core::DecisionStatus::idle;
  decision.reason = "no latency pressure";
  const std::string text = format_explanation(decision);
  EXPECT_THAT(text, HasSubstr("Decision: idle - no latency pressure\n"));
  EXPECT_THAT(text, Not(HasSubstr("Plan:")));
}

}  // namespace
}  // namespace nb::codec
