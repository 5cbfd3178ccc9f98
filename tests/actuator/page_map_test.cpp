// LinuxMemorySyscalls::resident_ranges against a page map laid out in a fixture tree: a regular
// file answers the PAGEMAP_SCAN ioctl with ENOTTY, so the engine reads entries as on a kernel
// before 6.7, and every bit of an entry is under the test's control (the real kernel's page map
// is covered by RealMigration on this host and in the guests).

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "actuator/linux_memory_syscalls.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::actuator {
namespace {

constexpr int kPid = 42;
constexpr std::uintptr_t kPage = 4096;
constexpr std::uintptr_t kPmd = 2 * 1024 * 1024;
constexpr std::uint64_t kPresent = 1ULL << 63;
constexpr std::uint64_t kExclusive = 1ULL << 56;
constexpr std::uint64_t kFlagCompoundHead = 1ULL << 15;
constexpr std::uint64_t kFlagThp = 1ULL << 22;
// 128 MiB blocks: node 0 holds frames [0, 4 blocks), node 1 the next 4 blocks; nothing above.
constexpr std::uint64_t kFramesPerBlock = 32768;
constexpr std::uint64_t kNode1Frame = 4 * kFramesPerBlock;
constexpr std::uint64_t kUnlistedFrame = 100 * kFramesPerBlock;

class PageMap : public ::testing::Test {
 protected:
  void SetUp() override {
    tree.make_file("sys/devices/system/memory/block_size_bytes", "8000000\n");
    for (int block = 0; block < 8; ++block) {
      tree.make_file("sys/devices/system/node/node" + std::to_string(block / 4) + "/memory" +
                         std::to_string(block) + "/online",
                     "1\n");
    }
    tree.make_file("proc/" + std::to_string(kPid) + "/pagemap", "");
    tree.make_file("proc/kpageflags", "");
  }

  // The page map entry of the page at `address`.
  void entry(std::uintptr_t address, std::uint64_t value) {
    write_at("proc/" + std::to_string(kPid) + "/pagemap", address / kPage * 8, value);
  }
  // `count` present pages from `address` on consecutive frames from `frame`.
  void pages(std::uintptr_t address, std::size_t count, std::uint64_t frame,
             bool exclusive = true) {
    for (std::size_t i = 0; i < count; ++i) {
      entry(address + i * kPage, kPresent | (exclusive ? kExclusive : 0) | (frame + i));
    }
  }
  void huge_page(std::uintptr_t address, std::uint64_t head_frame) {
    pages(address, kPmd / kPage, head_frame);
    write_at("proc/kpageflags", head_frame * 8, kFlagThp | kFlagCompoundHead);
  }
  void write_at(const std::string& relative, std::uint64_t offset, std::uint64_t value) {
    int fd = ::open(tree.path(relative).c_str(), O_WRONLY);
    ASSERT_GE(fd, 0) << relative;
    ASSERT_EQ(::pwrite(fd, &value, sizeof(value), static_cast<off_t>(offset)),
              static_cast<ssize_t>(sizeof(value)));
    ::close(fd);
  }

  std::string ranges(std::uintptr_t start, std::uintptr_t end) {
    LinuxMemorySyscalls syscalls(tree.path("proc"), tree.path("sys"));
    auto read = syscalls.resident_ranges(kPid, start, end);
    if (!read.ok()) {
      return "error: " + read.error().message();
    }
    std::ostringstream out;
    for (const auto& range : *read) {
      out << std::hex << "[" << (range.start - start) / kPage << "," << (range.end - start) / kPage
          << std::dec << ")";
      out << (range.huge ? " huge" : "") << (range.maybe_shared ? " shared" : "");
      out << (range.node ? " node" + std::to_string(*range.node) : " unknown") << ";";
    }
    return out.str();
  }

  nb::testing::TempTree tree;
};

constexpr std::uintptr_t kStart = 0x40000000;  // on a huge-page boundary

TEST_F(PageMap, RunsSplitWhereSharingNodeOrResidenceChanges) {
  pages(kStart, 10, 100);                          // pages 0-9 on node 0
  pages(kStart + 12 * kPage, 3, 200, false);       // 12-14 shared
  pages(kStart + 15 * kPage, 3, kNode1Frame + 5);  // 15-17 on node 1
  pages(kStart + 18 * kPage, 1, 40);               // 18 back on node 0
  pages(kStart + 19 * kPage, 2, kUnlistedFrame);   // 19-20 in no listed block
  pages(kStart + 21 * kPage, 2, 7);                // 21-22 on node 0, frames out of order
  EXPECT_EQ(ranges(kStart, kStart + 32 * kPage),
            "[0,a) node0;[c,f) shared node0;[f,12) node1;[12,13) node0;[13,15) unknown;"
            "[15,17) node0;");
}

TEST_F(PageMap, HiddenFrameNumbersLeaveTheNodeUnknownButKeepSharing) {
  for (std::uintptr_t i = 0; i < 6; ++i) {
    entry(kStart + i * kPage, kPresent | (i < 4 ? kExclusive : 0));
  }
  EXPECT_EQ(ranges(kStart, kStart + 8 * kPage), "[0,4) unknown;[4,6) shared unknown;");
}

TEST_F(PageMap, HugePageIsOneRangeByItsHeadAndSmallPagesAroundItStaySmall) {
  pages(kStart + kPmd - 4 * kPage, 4, 1000);  // small pages just below the huge page
  huge_page(kStart + kPmd, 2048);             // head frame aligned to 512
  pages(kStart + 2 * kPmd, 3, 3000);          // small pages just after it
  EXPECT_EQ(ranges(kStart, kStart + 3 * kPmd),
            "[1fc,200) node0;[200,400) huge node0;[400,403) node0;");
}

TEST_F(PageMap, SmallPagesAcrossAHugePageBoundaryStayOneRun) {
  // The frame at the boundary is aligned like a huge page's head, but its flags say it is not.
  pages(kStart + kPmd - 3 * kPage, 6, 4096 - 3);
  EXPECT_EQ(ranges(kStart, kStart + 2 * kPmd), "[1fd,203) node0;");
}

TEST_F(PageMap, ARunLongerThanOneReadIsOneRange) {
  // More entries than one read of the page map takes (64 Ki), on frames spanning two blocks.
  pages(kStart, 70000, kFramesPerBlock - 100);
  EXPECT_EQ(ranges(kStart, kStart + 70000 * kPage), "[0,11170) node0;");
}

TEST_F(PageMap, HugePageIsWholeWhereOneReadOfTheMapEnds) {
  // The range starts off a huge-page boundary, so a read of 64 Ki entries ends five pages into the
  // huge page at 256 MiB; it must still come back as one huge page, not 512 small ones.
  huge_page(kStart + 256 * 1024 * 1024, 8192);
  EXPECT_EQ(ranges(kStart + 5 * kPage, kStart + 256 * 1024 * 1024 + kPmd),
            "[fffb,101fb) huge node0;");
}

TEST_F(PageMap, ARunStopsWhereItsFramesCrossIntoAnotherNode) {
  pages(kStart, 8, kNode1Frame - 4);
  EXPECT_EQ(ranges(kStart, kStart + 8 * kPage), "[0,4) node0;[4,8) node1;");
}

TEST_F(PageMap, MissingPageMapIsAnErrorNamingIt) {
  LinuxMemorySyscalls syscalls(tree.path("proc"), tree.path("sys"));
  auto read = syscalls.resident_ranges(kPid + 1, kStart, kStart + kPage);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message().find(std::to_string(kPid + 1) + "/pagemap"), std::string::npos)
      << read.error().message();
}

}  // namespace
}  // namespace nb::actuator
