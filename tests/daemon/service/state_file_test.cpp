#include "daemon/codec/state_file.hpp"

#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

namespace nb::codec {
namespace {

using namespace std::chrono_literals;

const TimePoint kNow = TimePoint(std::chrono::seconds(1'780'000'000));

RoundRecord acted_round(std::uint64_t number) {
  RoundRecord record;
  record.number = number;
  record.time = kNow + std::chrono::seconds(number);
  record.trigger = "timer";
  record.status = "ready";
  record.outcome = "done";
  record.source_node = 1;
  record.dest_nodes = {0, 2};
  record.containers = {"kubepods/a", "kubepods/b"};
  record.planned_bytes = 512 * kMiB;
  record.moved_bytes = 400 * kMiB;
  record.migrated = true;
  record.report = {{"bytes_moved", 400 * kMiB}};
  return record;
}

TEST(StateFile, SavedRoundsLoadBackUnchanged) {
  testing::TempTree tree;
  auto file = tree.path("state.json");
  RoundRecord deferred = acted_round(2);
  deferred.outcome = "deferred";
  deferred.migrated = false;
  deferred.moved_bytes = 0;
  deferred.source_node.reset();
  deferred.report = nullptr;
  deferred.evicted = {"kubepods/c"};
  ASSERT_TRUE(save_state(file, {acted_round(1), deferred}).ok());

  auto loaded = load_state(file, kNow);
  EXPECT_TRUE(loaded.problem.empty());
  ASSERT_EQ(loaded.rounds.size(), 2u);
  EXPECT_EQ(to_json(loaded.rounds[0]), to_json(acted_round(1)));
  EXPECT_EQ(to_json(loaded.rounds[1]), to_json(deferred));
  EXPECT_FALSE(std::filesystem::exists(tree.path("state.json.tmp")));
}

TEST(StateFile, MissingFileIsEmptyHistoryWithoutProblem) {
  testing::TempTree tree;
  auto loaded = load_state(tree.path("state.json"), kNow);
  EXPECT_TRUE(loaded.rounds.empty());
  EXPECT_TRUE(loaded.problem.empty());
  EXPECT_FALSE(loaded.moved_aside_to.has_value());
}

class CorruptStateFile : public ::testing::TestWithParam<const char*> {};

TEST_P(CorruptStateFile, IsMovedAsideAndHistoryStartsEmpty) {
  testing::TempTree tree;
  auto file = tree.make_file("state.json", GetParam());
  auto loaded = load_state(file, kNow);
  EXPECT_TRUE(loaded.rounds.empty());
  EXPECT_FALSE(loaded.problem.empty());
  ASSERT_TRUE(loaded.moved_aside_to.has_value());
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_EQ(testing::read_file(*loaded.moved_aside_to), GetParam());
  EXPECT_NE(loaded.moved_aside_to->filename().string().find("state.json.corrupt-"),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Contents, CorruptStateFile,
    ::testing::Values("{\"version\": 1, \"rounds\": [", "garbage", "[]",
                      "{\"version\": 99, \"rounds\": []}", "{\"version\": 1}",
                      "{\"version\": 1, \"rounds\": [{\"number\": 1}]}",
                      "{\"version\": 1, \"rounds\": [{\"number\": 1, \"time\": \"yesterday\"}]}"));

TEST(StateFile, SaveIntoMissingDirectoryFailsWithErrno) {
  testing::TempTree tree;
  auto saved = save_state(tree.path("no/such/dir/state.json"), {acted_round(1)});
  ASSERT_FALSE(saved.ok());
  EXPECT_EQ(saved.error().code, ENOENT);
}

TEST(StateFile, HistoryHoldsOnlyActedRoundsInOrder) {
  RoundRecord deferred = acted_round(2);
  deferred.migrated = false;
  RoundRecord evicted = acted_round(3);
  evicted.migrated = false;
  evicted.evicted = {"x"};
  auto history = to_history({acted_round(1), deferred, evicted});
  ASSERT_EQ(history.size(), 2u);
  EXPECT_TRUE(history[0].migrated);
  EXPECT_EQ(history[0].source_node, 1);
  EXPECT_EQ(history[0].dest_nodes, (std::vector<NodeId>{0, 2}));
  EXPECT_FALSE(history[1].migrated);
  EXPECT_TRUE(history[1].evicted);
  EXPECT_EQ(history[1].time, acted_round(3).time);
}

}  // namespace
}  // namespace nb::codec
