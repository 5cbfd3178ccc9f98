// What a round moved of each container to each destination, in the state file: written, read
// back, handed to the policy's history (the ping-pong ban's unit for partial moves), and a
// malformed entry named.

#include <gtest/gtest.h>

#include "base/time.hpp"
#include "daemon/codec/state_file.hpp"

namespace nb::codec {
namespace {

using nlohmann::json;

rounds::RoundRecord partial_round() {
  rounds::RoundRecord record;
  record.number = 7;
  record.time = *parse_rfc3339("2026-12-07T10:00:00Z");
  record.status = rounds::RoundStatus::ready;
  record.outcome = rounds::RoundOutcome::done;
  record.source_node = 0;
  record.dest_nodes = {1, 2};
  record.planned_bytes = 3 * kGiB;
  record.moved_bytes = 3 * kGiB;
  record.migrated = true;
  record.moved_shares = {{"stream.scope", 1, 2 * kGiB}, {"stream.scope", 2, kGiB}};
  return record;
}

TEST(MovedShares, RoundTripThroughTheStateFileAndReachTheHistory) {
  const rounds::RoundRecord record = partial_round();
  const json written = to_json(record);
  EXPECT_EQ(written["moved_by_container"],
            json::parse(R"([{"id": "stream.scope", "to": 1, "bytes": 2147483648},
                            {"id": "stream.scope", "to": 2, "bytes": 1073741824}])"));
  auto read = record_from_json(written);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(read->moved_shares, record.moved_shares);
  const core::History history = rounds::to_history({*read});
  ASSERT_EQ(history.size(), 1U);
  EXPECT_EQ(history.front().moved, record.moved_shares);
}

TEST(MovedShares, ARoundWithoutThemWritesNoKeyAndReadsEmpty) {
  rounds::RoundRecord record = partial_round();
  record.moved_shares.clear();
  const json written = to_json(record);
  EXPECT_FALSE(written.contains("moved_by_container"));
  auto read = record_from_json(written);
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->moved_shares.empty());
}

TEST(MovedShares, AMalformedEntryIsNamed) {
  json written = to_json(partial_round());
  written["moved_by_container"][0].erase("to");
  auto read = record_from_json(written);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().message(), "round 7.moved_by_container[0].to: missing");
}

// Found by fuzz_state_journal: a float out of an integer's range was converted with undefined
// behaviour. It is now an error naming the field, so the state file is set aside, not misread.
TEST(MovedShares, BytesOutOfAnIntegersRangeAreAnErrorNamingTheField) {
  json written = to_json(partial_round());
  written["moved_by_container"][0]["bytes"] = 8.8e34;
  auto read = record_from_json(written);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().message(),
            "round 7.moved_by_container[0].bytes: expected an integer, got 8.8e+34");
  written = to_json(partial_round());
  written["planned_bytes"] = -1;
  EXPECT_FALSE(record_from_json(written).ok());
}

}  // namespace
}  // namespace nb::codec
