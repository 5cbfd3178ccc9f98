#include "daemon/codec/decision_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

namespace nb::codec {
namespace {

using nlohmann::json;

core::Decision ready_decision() {
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.level = core::PressureLevel::force;
  decision.thresholds = core::ThresholdMode::absolute;
  decision.bandwidth_level = core::BandwidthLevel::high;
  decision.source_node = 0;
  decision.dest_nodes = {1, 3};
  decision.migrate = {{"batch.slice/job-7.scope", kGiB, {1}}};
  decision.evict = {{"batch.slice/job-9.scope", 2 * kGiB}};
  decision.total_bytes = kGiB;
  decision.threshold = 0.7;
  decision.explanation = {"pressure: force"};
  return decision;
}

// The decision example of issue 3, field for field.
TEST(DecisionJson, PrintsTheIssueShape) {
  EXPECT_EQ(to_json(ready_decision()), json::parse(R"({
    "status": "ready", "reason": "", "level": "force", "thresholds": "absolute",
    "bandwidth_level": "high",
    "bandwidth_pressure": false, "source_node": 0, "dest_nodes": [1, 3],
    "migrate": [ {"id": "batch.slice/job-7.scope", "bytes_on_source": 1073741824, "dest_nodes": [1]} ],
    "evict": [ {"id": "batch.slice/job-9.scope", "bytes_on_source": 2147483648} ],
    "total_bytes": 1073741824, "threshold": 0.7
  })"));
}

TEST(DecisionJson, UncomputedFieldsAreNull) {
  core::Decision decision;
  decision.status = core::DecisionStatus::no_metrics;
  decision.reason = "no node has a read latency";
  const json printed = to_json(decision);
  EXPECT_TRUE(printed["bandwidth_level"].is_null());
  EXPECT_TRUE(printed["source_node"].is_null());
  EXPECT_TRUE(printed["thresholds"].is_null());
  EXPECT_EQ(printed["status"], "no_metrics");
  EXPECT_EQ(printed["level"], "none");
  EXPECT_EQ(printed["migrate"], json::array());
}

TEST(DecisionJson, ExplanationOnlyWhenAskedFor) {
  EXPECT_FALSE(to_json(ready_decision()).contains("explanation"));
  EXPECT_EQ(to_json(ready_decision(), ExplanationField::include)["explanation"],
            json::array({"pressure: force"}));
}

TEST(DecisionJson, FormattedForPeopleInTheIssueOrder) {
  const std::string text = format_decision(ready_decision());
  EXPECT_EQ(nlohmann::json::parse(text), to_json(ready_decision()));
  EXPECT_LT(text.find("\"status\""), text.find("\"reason\""));
  EXPECT_LT(text.find("\"reason\""), text.find("\"level\""));
  EXPECT_LT(text.find("\"total_bytes\""), text.find("\"threshold\""));
  EXPECT_LT(text.find("\"id\""), text.find("\"bytes_on_source\""));
  EXPECT_TRUE(text.starts_with("{\n  \"status\": \"ready\""));
}

TEST(DecisionJson, RoundTrips) {
  const json printed = to_json(ready_decision(), ExplanationField::include);
  auto parsed = decision_from_json(printed);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(to_json(*parsed, ExplanationField::include), printed);
  EXPECT_EQ(parsed->migrate[0].dest_nodes, std::vector<NodeId>{1});
  EXPECT_EQ(parsed->explanation, ready_decision().explanation);
}

TEST(DecisionJson, RelativeCalibratingAndAbsentThresholdsRoundTrip) {
  core::Decision relative = ready_decision();
  relative.thresholds = core::ThresholdMode::relative;
  core::Decision calibrating;
  calibrating.status = core::DecisionStatus::calibrating;
  calibrating.reason = "no baseline for node 1";
  for (const core::Decision& decision : {relative, calibrating}) {
    const json printed = to_json(decision);
    auto parsed = decision_from_json(printed);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message();
    EXPECT_EQ(parsed->thresholds, decision.thresholds);
    EXPECT_EQ(parsed->status, decision.status);
    EXPECT_EQ(to_json(*parsed), printed);
  }
  EXPECT_EQ(to_json(relative)["thresholds"], "relative");
  EXPECT_EQ(to_json(calibrating)["status"], "calibrating");
}

TEST(DecisionJson, DecisionWithoutThresholdsFromAnOlderDaemonReads) {
  json printed = to_json(ready_decision());
  printed.erase("thresholds");
  auto parsed = decision_from_json(printed);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_FALSE(parsed->thresholds.has_value());
}

struct BadDecision {
  const char* name;
  std::function<void(json&)> change;
  const char* error;
};

class DecisionJsonRejects : public ::testing::TestWithParam<BadDecision> {};

TEST_P(DecisionJsonRejects, NamingThePath) {
  json document = to_json(ready_decision());
  GetParam().change(document);
  auto parsed = decision_from_json(document);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message(), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecisionJsonRejects,
    ::testing::Values(
        BadDecision{"UnknownStatus", [](json& d) { d["status"] = "done"; },
                    "status: unknown value \"done\" (expected one of ready, idle, cooldown, "
                    "no_metrics, calibrating, failed)"},
        BadDecision{"AutoThresholds", [](json& d) { d["thresholds"] = "auto"; },
                    "thresholds: unknown value \"auto\" (expected one of absolute, relative)"},
        BadDecision{"ThresholdsOfWrongType", [](json& d) { d["thresholds"] = 1.5; },
                    "thresholds: expected a string, got number"},
        BadDecision{"MissingLevel", [](json& d) { d.erase("level"); }, "level: missing"},
        BadDecision{"NegativeBytes", [](json& d) { d["migrate"][0]["bytes_on_source"] = -1; },
                    "migrate[0].bytes_on_source: must not be negative, got -1"},
        BadDecision{"UnknownKey", [](json& d) { d["evict"][0]["why"] = "x"; },
                    "evict[0].why: unknown key"},
        BadDecision{"DestNotANode", [](json& d) { d["dest_nodes"][1] = "three"; },
                    "dest_nodes[1]: expected an integer, got string"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace nb::codec
