#include "daemon/codec/state_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

namespace nb::codec {
namespace {

using namespace std::chrono_literals;

const TimePoint kNow = TimePoint(std::chrono::seconds(1'780'000'000));

rounds::RoundRecord acted_round(std::uint64_t number) {
  rounds::RoundRecord record;
  record.number = number;
  record.time = kNow + std::chrono::seconds(number);
  record.trigger = "timer";
  record.status = rounds::RoundStatus::ready;
  record.outcome = rounds::RoundOutcome::done;
  record.source_node = 1;
  record.dest_nodes = {0, 2};
  record.containers = {"kubepods/a", "kubepods/b"};
  record.planned_bytes = 512 * kMiB;
  record.moved_bytes = 400 * kMiB;
  record.migrated = true;
  record.report.emplace();
  record.report->bytes_moved = 400 * kMiB;
  actuator::MigrationReport report;
  actuator::ProcessReport process;
  process.pid = 42;
  process.bytes_moved_to[0] = 400 * kMiB;
  actuator::ContainerReport container;
  container.id = "kubepods/a";
  container.processes = {process};
  report.containers = {container};
  record.full_report = rounds::keep_busiest(report, 10);
  return record;
}

TEST(StateFile, SavedRoundsLoadBackUnchanged) {
  testing::TempTree tree;
  auto file = tree.path("state.json");
  rounds::RoundRecord deferred = acted_round(2);
  deferred.outcome = rounds::RoundOutcome::deferred;
  deferred.migrated = false;
  deferred.moved_bytes = 0;
  deferred.source_node.reset();
  deferred.report.reset();
  deferred.full_report.reset();
  deferred.evicted = {"kubepods/c"};
  ASSERT_TRUE(save_state(file, {acted_round(1), deferred}).ok());

  auto loaded = load_state(file, kNow);
  EXPECT_FALSE(loaded.set_aside.has_value());
  ASSERT_EQ(loaded.contents.rounds.size(), 2u);
  EXPECT_EQ(to_json(loaded.contents.rounds[0]), to_json(acted_round(1)));
  EXPECT_EQ(to_json(loaded.contents.rounds[1]), to_json(deferred));
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(file.parent_path())) {
    left.push_back(entry.path().filename().string());
  }
  EXPECT_THAT(left, ::testing::ElementsAre("state.json")) << "no temp file is left behind";
}

TEST(StateFile, RoundWithoutAFullReportWritesNoFullReportKey) {
  rounds::RoundRecord summarised = acted_round(1);
  summarised.full_report.reset();
  EXPECT_FALSE(to_json(summarised).contains("full_report"));
  EXPECT_EQ(to_json(acted_round(1))["full_report"]["containers"][0]["processes"][0]["pid"], 42);
}

TEST(StateFile, OnlyTheNewestFullReportsAreKept) {
  std::vector<rounds::RoundRecord> rounds;
  for (std::uint64_t number = 1; number <= 6; ++number) {
    rounds.push_back(acted_round(number));
  }
  rounds[4].full_report.reset();  // a round without a job sits between the newest two
  rounds::keep_newest_full_reports(rounds, 2);
  std::vector<bool> kept;
  for (const auto& round : rounds) {
    kept.push_back(round.full_report.has_value());
    EXPECT_TRUE(round.report.has_value()) << "summaries stay for every round";
  }
  EXPECT_EQ(kept, (std::vector<bool>{false, false, false, true, false, true}));
  rounds::keep_newest_full_reports(rounds, 0);
  EXPECT_FALSE(rounds[5].full_report.has_value());
}

TEST(StateFile, MissingFileIsEmptyHistoryWithoutProblem) {
  testing::TempTree tree;
  auto loaded = load_state(tree.path("state.json"), kNow);
  EXPECT_TRUE(loaded.contents.rounds.empty());
  EXPECT_FALSE(loaded.set_aside.has_value());
}

class CorruptStateFile : public ::testing::TestWithParam<const char*> {};

TEST_P(CorruptStateFile, IsMovedAsideAndHistoryStartsEmpty) {
  testing::TempTree tree;
  auto file = tree.make_file("state.json", GetParam());
  auto loaded = load_state(file, kNow);
  EXPECT_TRUE(loaded.contents.rounds.empty());
  ASSERT_TRUE(loaded.set_aside.has_value());
  EXPECT_FALSE(loaded.set_aside->unreadable.message().empty());
  const auto& moved_to = loaded.set_aside->moved_to;
  ASSERT_TRUE(moved_to.ok()) << moved_to.error().message();
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_EQ(testing::read_file(*moved_to), GetParam());
  EXPECT_NE(moved_to->filename().string().find("state.json.corrupt-"), std::string::npos);
}

// A place to move it that is taken (here by a directory that is not empty) leaves the file where
// it was, and says both why it was unreadable and why it stayed.
TEST(StateFile, AnUnreadableFileThatCannotBeMovedAsideSaysWhy) {
  testing::TempTree tree;
  auto file = tree.make_file("state.json", "garbage");
  tree.make_file("state.json.corrupt-20260528T202640Z/keep", "");
  auto loaded = load_state(file, kNow);
  EXPECT_TRUE(loaded.contents.rounds.empty());
  ASSERT_TRUE(loaded.set_aside.has_value());
  EXPECT_EQ(loaded.set_aside->unreadable.message(), "not a JSON object");
  ASSERT_FALSE(loaded.set_aside->moved_to.ok());
  EXPECT_NE(loaded.set_aside->moved_to.error().message().find("state.json.corrupt-"),
            std::string::npos);
  EXPECT_EQ(testing::read_file(file), "garbage");
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
  rounds::RoundRecord deferred = acted_round(2);
  deferred.migrated = false;
  rounds::RoundRecord evicted = acted_round(3);
  evicted.migrated = false;
  evicted.evicted = {"x"};
  auto history = rounds::to_history({acted_round(1), deferred, evicted});
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
