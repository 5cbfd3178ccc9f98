// The state store's writes: a round appends what changed, the journal is written anew when it
// has outgrown what the last compaction wrote or an append failed, and what it wrote loads back.

#include "daemon/service/state_store.hpp"

#include "daemon/service/round_engine.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

using std::chrono::seconds;

const TimePoint kNow = TimePoint(seconds(1'780'000'000));

rounds::RoundRecord failed_round(std::uint64_t number) {
  rounds::RoundRecord record;
  record.number = number;
  record.time = kNow + seconds(number);
  record.trigger = "timer";
  record.status = rounds::RoundStatus::failed;
  record.outcome = rounds::RoundOutcome::failed;
  record.reason = "pressure but no container can be migrated or evicted";
  return record;
}

std::uintmax_t size_of(const std::filesystem::path& file) {
  return std::filesystem::file_size(file);
}

TEST(StateStore, ARoundAppendsItsLineAndTheJournalIsCompactedWhenItOutgrowsTheLastCompaction) {
  testing::TempTree tree;
  const auto file = tree.path("state") / "state.json";
  StateStore store(tree.path("state"));
  NodeBaselines baselines;
  ASSERT_TRUE(store.load(kNow).rounds.empty());
  std::vector<rounds::RoundRecord> kept;
  store.compact(kept, baselines, kNow);
  std::uintmax_t previous = size_of(file);
  std::size_t appends = 0;
  std::size_t compactions = 0;
  // As the engine keeps them: the newest kRoundsKept.
  for (std::uint64_t number = 1; number <= 4 * kRoundsKept; ++number) {
    kept.push_back(failed_round(number));
    if (kept.size() > kRoundsKept) {
      kept.erase(kept.begin());
    }
    store.write({&kept.back()}, kept, baselines, kNow + seconds(number));
    const std::uintmax_t size = size_of(file);
    if (size > previous) {
      ++appends;
      EXPECT_LT(size - previous, 1024u) << "an append is one round's line";
    } else {
      ++compactions;
    }
    previous = size;
  }
  EXPECT_GE(compactions, 2u);
  EXPECT_LE(compactions, 8u) << "a compaction once the appends outweigh the kept rounds";
  EXPECT_GT(appends, 4 * kRoundsKept - 8);
  // The journal may hold rounds the engine has trimmed since the last compaction; restoring them
  // trims again.
  RoundEngine engine;
  engine.restore(store.load(kNow).rounds);
  ASSERT_EQ(engine.rounds().size(), kept.size());
  EXPECT_EQ(codec::to_json(engine.rounds().front()), codec::to_json(kept.front()));
  EXPECT_EQ(codec::to_json(engine.rounds().back()), codec::to_json(kept.back()));
}

TEST(StateStore, AFailedAppendIsFollowedByAWholeWriteThatLoads) {
  testing::TempTree tree;
  const auto dir = tree.path("state");
  StateStore store(dir);
  NodeBaselines baselines;
  store.load(kNow);
  std::vector<rounds::RoundRecord> kept{failed_round(1)};
  store.compact(kept, baselines, kNow);
  // The file vanishes (an operator cleaned the directory): the append cannot open it.
  std::filesystem::remove(dir / "state.json");
  kept.push_back(failed_round(2));
  store.write({&kept.back()}, kept, baselines, kNow + seconds(2));
  auto loaded = store.load(kNow);
  ASSERT_EQ(loaded.rounds.size(), 2u) << "written anew at once";
}

}  // namespace
}  // namespace nb::service
