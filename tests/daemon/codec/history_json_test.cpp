#include "daemon/codec/history_json.hpp"

#include <gtest/gtest.h>

#include "base/time.hpp"
#include "daemon/codec/snapshot_json.hpp"

namespace nb::codec {
namespace {

using nlohmann::json;

TEST(HistoryJson, RoundTripsARound) {
  const core::Round round{*parse_rfc3339("2026-12-02T09:55:00Z"), 1, {0, 2}, true, false, {}};
  const json printed = to_json(round);
  EXPECT_EQ(printed, json::parse(R"({"time": "2026-12-02T09:55:00Z", "source_node": 1,
                                     "dest_nodes": [0, 2], "migrated": true, "evicted": false})"));
  auto parsed = round_from_json(printed, "history[0]");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->time, round.time);
  EXPECT_EQ(parsed->source_node, 1);
  EXPECT_EQ(parsed->dest_nodes, round.dest_nodes);
  EXPECT_TRUE(parsed->migrated);
  EXPECT_FALSE(parsed->evicted);
}

TEST(HistoryJson, SourceAndDestinationsAreOptional) {
  auto parsed = round_from_json(
      json::parse(R"({"time": "2026-12-02T09:55:00Z", "source_node": null, "migrated": false,
                      "evicted": true})"),
      "history[0]");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_FALSE(parsed->source_node.has_value());
  EXPECT_TRUE(parsed->dest_nodes.empty());
  EXPECT_TRUE(to_json(*parsed)["source_node"].is_null());
}

TEST(HistoryJson, ErrorsCarryTheGivenPath) {
  auto parsed = round_from_json(json::parse(R"({"time": "2026-12-02T09:55:00Z", "migrated": true,
                                                "evicted": false, "dest_nodes": [1, -2]})"),
                                "rounds[4]");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message(), "rounds[4].dest_nodes[1]: not a node id: -2");
}

TEST(HistoryJson, FlagsAreRequired) {
  auto parsed = round_from_json(json::parse(R"({"time": "2026-12-02T09:55:00Z"})"), "history[1]");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message(), "history[1].migrated: missing");
}

TEST(HistoryJson, AnEffectRoundTrips) {
  core::Round round{*parse_rfc3339("2026-12-02T09:55:00Z"), 0, {1}, true, false, {}};
  round.effect = core::RoundEffect{false, 150, 148.5, 50, 47};
  const json printed = to_json(round);
  EXPECT_EQ(printed["effect"], json::parse(R"({"improved": false, "hot_before": 150,
      "hot_after": 148.5, "gap_before": 50, "gap_after": 47})"));
  auto parsed = round_from_json(printed, "history[0]");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  ASSERT_TRUE(parsed->effect.has_value());
  EXPECT_FALSE(parsed->effect->improved);
  EXPECT_DOUBLE_EQ(parsed->effect->hot_after, 148.5);
  EXPECT_DOUBLE_EQ(parsed->effect->gap_after, 47);
}

TEST(HistoryJson, AnEffectIsOptionalAndNullMeansNone) {
  auto parsed = round_from_json(json::parse(R"({"time": "2026-12-02T09:55:00Z", "migrated": true,
                                                "evicted": false, "effect": null})"),
                                "history[0]");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_FALSE(parsed->effect.has_value());
  EXPECT_FALSE(to_json(*parsed).contains("effect"));
}

TEST(HistoryJson, AnIncompleteEffectNamesTheMissingKey) {
  auto parsed = round_from_json(json::parse(R"({"time": "2026-12-02T09:55:00Z", "migrated": true,
      "evicted": false, "effect": {"improved": true, "hot_before": 1, "hot_after": "x",
      "gap_before": 1, "gap_after": 1}})"),
                                "history[3]");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message().find("history[3].effect.hot_after"), std::string::npos)
      << parsed.error().message();
  parsed = round_from_json(json::parse(R"({"time": "2026-12-02T09:55:00Z", "migrated": true,
      "evicted": false, "effect": {"improved": true}})"),
                           "history[3]");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message(), "history[3].effect.hot_before: missing");
}

}  // namespace
}  // namespace nb::codec
