// Saving the daemon's rounds onto a disk that fills up: the save fails with the errno, the file
// already there still loads with every round it had, and no temporary file is left behind.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "daemon/codec/state_file.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::reliability {
namespace {

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
  record.containers = {"kubepods/pod-" + std::to_string(number)};
  record.planned_bytes = 512 * kMiB;
  record.moved_bytes = 400 * kMiB;
  record.migrated = true;
  record.report.emplace();
  record.report->bytes_moved = 400 * kMiB;
  return record;
}

std::vector<rounds::RoundRecord> rounds(std::uint64_t count) {
  std::vector<rounds::RoundRecord> list;
  for (std::uint64_t number = 1; number <= count; ++number) {
    list.push_back(acted_round(number));
  }
  return list;
}

// The old state must still read back exactly.
void expect_state_is(const std::filesystem::path& file,
                     const std::vector<rounds::RoundRecord>& expected) {
  auto loaded = codec::read_state(file);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message();
  ASSERT_EQ(loaded->size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(codec::to_json((*loaded)[i]), codec::to_json(expected[i]));
  }
  for (const auto& entry : std::filesystem::directory_iterator(file.parent_path())) {
    const auto name = entry.path().filename().string();
    EXPECT_TRUE(entry.path() == file || name == "filler") << "left behind: " << name;
  }
}

// A 64 KiB tmpfs, mounted for the test and unmounted after it.
class TinyDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) {
      GTEST_SKIP() << "mounting a tmpfs needs root";
    }
    mount_point_ = tree_.make_dir("disk");
    if (::mount("tmpfs", mount_point_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=64k") != 0) {
      GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
    }
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) {
      ::umount2(mount_point_.c_str(), MNT_DETACH);
    }
  }

  void fill_the_disk() {
    std::ofstream filler(mount_point_ / "filler", std::ios::binary);
    std::string block(4096, 'x');
    while (filler.write(block.data(), static_cast<std::streamsize>(block.size())) &&
           filler.flush()) {
    }
  }

  nb::testing::TempTree tree_;
  std::filesystem::path mount_point_;
  bool mounted_ = false;
};

TEST_F(TinyDisk, FullDiskFailsTheSaveWithEnospcAndTheOldStateStays) {
  auto file = mount_point_ / codec::kStateFileName;
  auto old_rounds = rounds(3);
  ASSERT_TRUE(codec::save_state(file, old_rounds).ok());
  fill_the_disk();

  auto saved = codec::save_state(file, rounds(400));

  ASSERT_FALSE(saved.ok());
  EXPECT_EQ(saved.error().code, ENOSPC) << saved.error().message();
  expect_state_is(file, old_rounds);
}

TEST_F(TinyDisk, StateTooLargeForTheDiskFailsAndTheOldStateStays) {
  auto file = mount_point_ / codec::kStateFileName;
  auto old_rounds = rounds(3);
  ASSERT_TRUE(codec::save_state(file, old_rounds).ok());

  auto saved = codec::save_state(file, rounds(2000));

  ASSERT_FALSE(saved.ok());
  EXPECT_EQ(saved.error().code, ENOSPC) << saved.error().message();
  expect_state_is(file, old_rounds);
  // Once space is back, the next save goes through.
  EXPECT_TRUE(codec::save_state(file, rounds(5)).ok());
  expect_state_is(file, rounds(5));
}

// Without root, a file-size limit makes the write fail the same way a full disk does. It runs
// in a child so the limit never touches the test process.
TEST(StateSaveFaults, WriteFailingMidFileKeepsTheOldStateReadable) {
  nb::testing::TempTree tree;
  auto file = tree.path(codec::kStateFileName);
  auto old_rounds = rounds(3);
  ASSERT_TRUE(codec::save_state(file, old_rounds).ok());
  auto limit = static_cast<rlim_t>(std::filesystem::file_size(file) + 512);

  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    rlimit small{limit, limit};
    if (::setrlimit(RLIMIT_FSIZE, &small) != 0) {
      ::_exit(2);
    }
    auto saved = codec::save_state(file, rounds(400));
    ::_exit(!saved.ok() && saved.error().code == EFBIG ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the save did not fail with EFBIG";
  expect_state_is(file, old_rounds);
}

}  // namespace
}  // namespace nb::reliability
