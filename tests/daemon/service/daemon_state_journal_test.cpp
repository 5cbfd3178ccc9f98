// A crash can cut the state journal's last append at any byte. Whatever byte it stops at, the
// file loads with every round before that append, and the daemon starts on them.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "daemon/codec/state_journal.hpp"
#include "tests/daemon/service/daemon_harness.hpp"

namespace nb::testing {
namespace {

using namespace std::chrono_literals;

const TimePoint kThen = TimePoint(std::chrono::seconds(1'780'000'000));

rounds::RoundRecord acted_round(std::uint64_t number) {
  rounds::RoundRecord record;
  record.number = number;
  record.time = kThen + std::chrono::seconds(number);
  record.trigger = "timer";
  record.status = rounds::RoundStatus::ready;
  record.outcome = rounds::RoundOutcome::done;
  record.reason = "node 1 under force pressure";
  record.source_node = 1;
  record.dest_nodes = {0};
  record.containers = {"pods/" + std::to_string(number)};
  record.planned_bytes = 512 * kMiB;
  record.moved_bytes = 400 * kMiB;
  record.migrated = true;
  record.job_finished = record.time + 5s;
  record.effect_reason = "no reading";
  return record;
}

struct Journal {
  std::string before;  // three rounds, compacted
  std::string after;   // and a fourth appended
};

Journal write_journal(const std::filesystem::path& file) {
  codec::StateJournal journal(file);
  EXPECT_TRUE(journal.compact({acted_round(1), acted_round(2), acted_round(3)}, nullptr).ok());
  Journal texts{read_file(file), ""};
  EXPECT_TRUE(journal.append(acted_round(4), codec::StateJournal::Sync::yes).ok());
  texts.after = read_file(file);
  EXPECT_TRUE(texts.after.starts_with(texts.before));
  return texts;
}

void write_prefix(const std::filesystem::path& file, const std::string& text, std::size_t size) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(size));
}

TEST(StateJournal, ACutAtAnyByteOfTheLastAppendLoadsTheRoundsBeforeIt) {
  TempTree tree;
  const auto file = tree.path("state.json");
  const Journal journal = write_journal(file);
  for (std::size_t size = journal.before.size(); size < journal.after.size(); ++size) {
    write_prefix(file, journal.after, size);
    auto loaded = codec::load_state(file, kThen);
    ASSERT_FALSE(loaded.set_aside.has_value())
        << "cut at " << size << ": " << loaded.set_aside->unreadable.message();
    ASSERT_EQ(loaded.contents.rounds.size(), 3u) << "cut at " << size;
    EXPECT_EQ(loaded.contents.rounds.back().number, 3u);
    EXPECT_EQ(loaded.contents.torn_line_dropped, size > journal.before.size());
  }
  write_prefix(file, journal.after, journal.after.size());
  EXPECT_EQ(codec::load_state(file, kThen).contents.rounds.size(), 4u);
}

TEST(StateJournal, ALastLineOfZerosAfterAPowerLossIsTornToo) {
  TempTree tree;
  const auto file = tree.path("state.json");
  const Journal journal = write_journal(file);
  std::string text = journal.before + std::string(300, '\0') + "\n";
  write_prefix(file, text, text.size());
  auto loaded = codec::load_state(file, kThen);
  ASSERT_FALSE(loaded.set_aside.has_value());
  EXPECT_EQ(loaded.contents.rounds.size(), 3u);
  EXPECT_TRUE(loaded.contents.torn_line_dropped);
}

TEST(StateJournal, ALaterLineForARoundReplacesItInPlace) {
  TempTree tree;
  const auto file = tree.path("state.json");
  codec::StateJournal journal(file);
  rounds::RoundRecord started = acted_round(2);
  started.outcome = rounds::RoundOutcome::started;
  started.migrated = false;
  ASSERT_TRUE(journal.compact({acted_round(1), started}, nullptr).ok());
  ASSERT_TRUE(journal.append(acted_round(3), codec::StateJournal::Sync::no).ok());
  ASSERT_TRUE(
      journal.append(acted_round(2), codec::StateJournal::Sync::yes).ok());  // round 2's job ended
  auto loaded = codec::load_state(file, kThen);
  ASSERT_EQ(loaded.contents.rounds.size(), 3u);
  EXPECT_EQ(loaded.contents.rounds[1].number, 2u);
  EXPECT_EQ(loaded.contents.rounds[1].outcome, rounds::RoundOutcome::done);
  EXPECT_EQ(loaded.contents.rounds[2].number, 3u);
}

TEST(StateJournal, ABadLineBeforeTheLastIsAnUnreadableFileNamingTheLine) {
  TempTree tree;
  const auto file = tree.path("state.json");
  const Journal journal = write_journal(file);
  std::string text = journal.after;
  text.insert(journal.before.size(), "{\"round\": 7}\n");
  write_prefix(file, text, text.size());
  auto loaded = codec::load_state(file, kThen);
  ASSERT_TRUE(loaded.set_aside.has_value());
  EXPECT_NE(loaded.set_aside->unreadable.message().find("line 5"), std::string::npos)
      << loaded.set_aside->unreadable.message();
  EXPECT_TRUE(loaded.contents.rounds.empty());
}

// The same cut, read by the daemon: it starts, and its policy reads the three acted rounds.
TEST(StateJournal, TheDaemonStartsOnTheRoundsBeforeACutAtAnyByte) {
  TempTree tree;
  std::filesystem::create_directories(tree.path("state"));
  const auto file = tree.path("state/state.json");
  const Journal journal = write_journal(file);
  for (std::size_t size = journal.before.size(); size < journal.after.size(); ++size) {
    write_prefix(file, journal.after, size);
    DaemonHarness daemon(tree);
    ASSERT_TRUE(daemon.start().ok()) << "cut at " << size;
    {
      std::lock_guard lock(daemon.fakes().mutex);
      ASSERT_FALSE(daemon.fakes().history_sizes.empty());
      EXPECT_EQ(daemon.fakes().history_sizes.front(), 3u) << "cut at " << size;
    }
    daemon.stop();
    EXPECT_TRUE(daemon.join(5s));
    const std::string rewritten = read_file(file);
    EXPECT_EQ(rewritten.back(), '\n') << "the start-up compaction leaves no torn line";
  }
}

}  // namespace
}  // namespace nb::testing
