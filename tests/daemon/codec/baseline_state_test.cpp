// The learned baselines' readings in the state file: they round-trip, an old file without them
// loads as before, and a malformed part costs only itself.

#include <gtest/gtest.h>

#include <sstream>

#include "daemon/codec/baseline_json.hpp"
#include "daemon/codec/state_file.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::codec {
namespace {

using namespace std::chrono_literals;

const TimePoint kNow = TimePoint(std::chrono::seconds(1'780'000'000));

SavedBaselines probe_readings() {
  SavedBaselines saved;
  saved.provider = "probe";
  saved.kind = core::LatencyKind::load_to_use;
  saved.readings[0] = {{kNow, 92.5}, {kNow + 10s, 101.25}};
  saved.readings[3] = {{kNow + 5ms, 140}};
  return saved;
}

rounds::RoundRecord a_round() {
  rounds::RoundRecord record;
  record.number = 7;
  record.time = kNow;
  record.trigger = "timer";
  record.status = rounds::RoundStatus::ready;
  record.outcome = rounds::RoundOutcome::dry_run;
  return record;
}

TEST(BaselineJson, ReadingsAreTimeInMillisecondsAndNanoseconds) {
  nlohmann::json json = to_json(probe_readings());
  EXPECT_EQ(json["provider"], "probe");
  EXPECT_EQ(json["kind"], "load_to_use");
  EXPECT_EQ(json["nodes"]["0"],
            nlohmann::json::parse("[[1780000000000, 92.5], [1780000010000, 101.25]]"));
  EXPECT_EQ(json["nodes"]["3"], nlohmann::json::parse("[[1780000000005, 140.0]]"));
  auto back = baselines_from_json(json);
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(*back, probe_readings());
}

struct MalformedCase {
  const char* name;
  const char* json;
  const char* problem;
};

TEST(BaselineJson, EveryMalformedPartIsNamed) {
  const MalformedCase cases[] = {
      {"not an object", "[]", "baselines: not a JSON object"},
      {"no provider", R"({"kind": "load_to_use", "nodes": {}})",
       "baselines.provider: not a string"},
      {"unknown kind", R"({"provider": "probe", "kind": "vibes", "nodes": {}})",
       "baselines.kind: unknown latency kind \"vibes\""},
      {"nodes not an object", R"({"provider": "probe", "kind": "load_to_use", "nodes": []})",
       "baselines.nodes: not a JSON object"},
      {"node id", R"({"provider": "probe", "kind": "load_to_use", "nodes": {"x": []}})",
       "baselines.nodes: \"x\" is not a node id"},
      {"readings not an array",
       R"({"provider": "probe", "kind": "load_to_use", "nodes": {"0": 3}})",
       "baselines.nodes.0: not an array of readings"},
      {"reading shape",
       R"({"provider": "probe", "kind": "load_to_use", "nodes": {"0": [[1, 2, 3]]}})",
       "baselines.nodes.0: a reading is [unix_ms, ns], got [1,2,3]"},
      {"zero latency", R"({"provider": "probe", "kind": "load_to_use", "nodes": {"0": [[1, 0]]}})",
       "baselines.nodes.0: a latency must be above 0 ns, got 0"},
      // Found by fuzz_state_journal: milliseconds that overflow a TimePoint's nanoseconds.
      {"time out of range",
       R"({"provider": "probe", "kind": "load_to_use", "nodes": {"0": [[17646696000009, 2.5]]}})",
       "baselines.nodes.0: a reading's time is out of range, got 17646696000009"},
  };
  for (const MalformedCase& c : cases) {
    auto parsed = baselines_from_json(nlohmann::json::parse(c.json));
    ASSERT_FALSE(parsed.ok()) << c.name;
    EXPECT_EQ(parsed.error().message(), c.problem) << c.name;
  }
}

TEST(BaselineStateFile, SavedBaselinesLoadBackWithTheRounds) {
  testing::TempTree tree;
  auto file = tree.path("state.json");
  const SavedBaselines saved = probe_readings();
  ASSERT_TRUE(save_state(file, {a_round()}, &saved).ok());

  auto loaded = load_state(file, kNow);
  EXPECT_FALSE(loaded.set_aside.has_value());
  EXPECT_FALSE(loaded.contents.baselines_dropped.has_value());
  ASSERT_EQ(loaded.contents.rounds.size(), 1u);
  EXPECT_EQ(to_json(loaded.contents.rounds[0]), to_json(a_round()));
  ASSERT_TRUE(loaded.contents.baselines.has_value());
  EXPECT_EQ(*loaded.contents.baselines, saved);
  // One JSON value a line, which jq and any JSON-lines tool read.
  std::istringstream lines(testing::read_file(file));
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded()) << line;
  }
  EXPECT_EQ(count, 3u) << "the header, the round and the baselines";
}

TEST(BaselineStateFile, NothingLearnedWritesNoBaselinesKey) {
  testing::TempTree tree;
  auto with_none = tree.path("none.json");
  auto with_empty = tree.path("empty.json");
  SavedBaselines empty;
  empty.provider = "probe";
  ASSERT_TRUE(save_state(with_none, {a_round()}).ok());
  ASSERT_TRUE(save_state(with_empty, {a_round()}, &empty).ok());
  EXPECT_EQ(testing::read_file(with_none), testing::read_file(with_empty));
  EXPECT_EQ(testing::read_file(with_none).find("baselines"), std::string::npos);
  auto loaded = load_state(with_none, kNow);
  EXPECT_FALSE(loaded.contents.baselines.has_value());
  EXPECT_FALSE(loaded.contents.baselines_dropped.has_value());
}

TEST(BaselineStateFile, AMalformedBaselinesPartKeepsTheRounds) {
  testing::TempTree tree;
  auto file = tree.make_file("state.json", R"({"version": 1, "rounds": [
      {"number": 7, "time": "2026-05-28T20:26:40Z", "status": "ready", "outcome": "dry_run"}],
      "baselines": {"provider": "probe", "kind": "load_to_use", "nodes": {"0": [[1, -4]]}}})");
  auto loaded = load_state(file, kNow);
  EXPECT_FALSE(loaded.set_aside.has_value());
  ASSERT_EQ(loaded.contents.rounds.size(), 1u);
  EXPECT_EQ(loaded.contents.rounds[0].number, 7u);
  EXPECT_FALSE(loaded.contents.baselines.has_value());
  ASSERT_TRUE(loaded.contents.baselines_dropped.has_value());
  EXPECT_EQ(loaded.contents.baselines_dropped->message(),
            "baselines.nodes.0: a latency must be above 0 ns, got -4");
}

}  // namespace
}  // namespace nb::codec
