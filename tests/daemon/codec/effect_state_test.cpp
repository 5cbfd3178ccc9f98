// A round's effect in the state file: what it measured and when, or why there is none, or that
// it is still due; and a malformed effect named by its round and key.

#include <gtest/gtest.h>

#include "base/time.hpp"
#include "daemon/codec/state_file.hpp"

namespace nb::codec {
namespace {

using nlohmann::json;

rounds::RoundRecord migrated_round() {
  rounds::RoundRecord record;
  record.number = 12;
  record.time = *parse_rfc3339("2026-12-05T10:00:00Z");
  record.status = rounds::RoundStatus::ready;
  record.outcome = rounds::RoundOutcome::done;
  record.source_node = 0;
  record.dest_nodes = {1};
  record.planned_bytes = 2 * kGiB;
  record.moved_bytes = 2 * kGiB;
  record.migrated = true;
  record.latencies_before = {{0, 150.0}, {1, 100.0}};
  record.job_finished = *parse_rfc3339("2026-12-05T10:00:20Z");
  return record;
}

TEST(EffectState, AMeasuredEffectRoundTrips) {
  rounds::RoundRecord record = migrated_round();
  record.effect = core::MeasuredEffect{{true, 150, 120, 50, 10}, 150, 120, 2 * kGiB};
  record.effect_measured = *parse_rfc3339("2026-12-05T10:01:30Z");
  const json written = to_json(record);
  EXPECT_EQ(written["effect"], json::parse(R"({"improved": true, "hot_before": 150,
      "hot_after": 120, "gap_before": 50, "gap_after": 10, "source_latency_before": 150,
      "source_latency_after": 120, "bytes_moved": 2147483648,
      "measured": "2026-12-05T10:01:30Z"})"));
  EXPECT_EQ(written["latencies_before"], json::parse(R"({"0": 150.0, "1": 100.0})"));
  EXPECT_EQ(written["job_finished"], "2026-12-05T10:00:20Z");
  auto read = record_from_json(written);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(to_json(*read), written);
  EXPECT_EQ(rounds::effect_result(*read), rounds::EffectResult::improved);
  ASSERT_TRUE(rounds::history_entry(*read)->effect.has_value());
  EXPECT_DOUBLE_EQ(rounds::history_entry(*read)->effect->hot_after, 120);
}

TEST(EffectState, TheTrafficPerGiBAndTheBandwidthsBeforeRoundTrip) {
  rounds::RoundRecord record = migrated_round();
  record.bandwidths_before = {{0, 80.0}, {1, 5.0}};
  record.effect = core::MeasuredEffect{{true, 150, 120, 50, 10, 7.5}, 150, 120, 2 * kGiB};
  const json written = to_json(record);
  EXPECT_EQ(written["effect"]["traffic_per_gib"], 7.5);
  EXPECT_EQ(written["bandwidths_before"], json::parse(R"({"0": 80.0, "1": 5.0})"));
  auto read = record_from_json(written);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(read->bandwidths_before, record.bandwidths_before);
  ASSERT_TRUE(read->effect.has_value());
  EXPECT_EQ(read->effect->effect.traffic_per_gib, 7.5);
  EXPECT_EQ(rounds::to_history({*read}).front().effect->traffic_per_gib, 7.5);
}

TEST(EffectState, NoEffectKeepsItsReason) {
  rounds::RoundRecord record = migrated_round();
  record.effect_reason = "the job moved 512 MiB of 2 GiB, less than migrate_threshold 0.7";
  const json written = to_json(record);
  EXPECT_TRUE(written["effect"].is_null());
  auto read = record_from_json(written);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(read->effect_reason, record.effect_reason);
  EXPECT_EQ(rounds::effect_result(*read), rounds::EffectResult::unknown);
  EXPECT_FALSE(rounds::history_entry(*read)->effect.has_value());
}

TEST(EffectState, APendingEffectSaysSoAndIsStillPendingAfterARestart) {
  const json written = to_json(migrated_round());
  EXPECT_EQ(written["effect_pending"], true);
  EXPECT_FALSE(written.contains("effect"));
  auto read = record_from_json(written);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_TRUE(read->effect_pending());
  EXPECT_EQ(rounds::effect_result(*read), std::nullopt);
}

TEST(EffectState, ARoundThatDidNotMigrateHasNoEffectFields) {
  rounds::RoundRecord record;
  record.number = 3;
  record.time = *parse_rfc3339("2026-12-05T10:00:00Z");
  const json written = to_json(record);
  for (const char* key : {"effect", "effect_pending", "effect_reason", "latencies_before"}) {
    EXPECT_FALSE(written.contains(key)) << key;
  }
}

TEST(EffectState, AMalformedEffectNamesItsRoundAndKey) {
  rounds::RoundRecord record = migrated_round();
  record.effect = core::MeasuredEffect{{true, 150, 120, 50, 10}, 150, 120, 2 * kGiB};
  json written = to_json(record);
  written["effect"]["hot_after"] = "fast";
  auto read = record_from_json(written);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message().find("round 12.effect.hot_after"), std::string::npos)
      << read.error().message();
  written = to_json(record);
  written["latencies_before"] = {{"zero", 1.0}};
  read = record_from_json(written);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message().find("round 12.latencies_before"), std::string::npos)
      << read.error().message();
}

}  // namespace
}  // namespace nb::codec
