#include "actuator/frame_nodes.hpp"

#include <fcntl.h>
#include <numaif.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "tests/support/temp_tree.hpp"

namespace nb::actuator {
namespace {

// 128 MiB blocks: 32,768 frames of 4 KiB each.
constexpr std::uint64_t kFramesPerBlock = 32768;

class FrameNodesTest : public ::testing::Test {
 protected:
  void block_size(std::string_view text) {
    tree.make_file("sys/devices/system/memory/block_size_bytes", text);
  }
  void block(int node, int number) {
    tree.make_file("sys/devices/system/node/node" + std::to_string(node) + "/memory" +
                       std::to_string(number) + "/online",
                   "1\n");
  }
  Result<FrameNodes> read() { return FrameNodes::read(tree.path("sys")); }

  nb::testing::TempTree tree;
};

TEST_F(FrameNodesTest, FramesMapToTheNodeListingTheirBlock) {
  block_size("8000000\n");
  for (int number = 0; number < 4; ++number) {
    block(0, number);
  }
  for (int number = 4; number < 8; ++number) {
    block(1, number);
  }
  block(3, 32);  // a node whose memory starts far above the others, after a hole
  auto map = read();
  ASSERT_TRUE(map.ok()) << map.error().message();
  EXPECT_EQ(map->block_count(), 9u);
  EXPECT_EQ(map->node_of(1), 0);
  EXPECT_EQ(map->node_of(4 * kFramesPerBlock - 1), 0);
  EXPECT_EQ(map->node_of(4 * kFramesPerBlock), 1);
  EXPECT_EQ(map->node_of(8 * kFramesPerBlock - 1), 1);
  EXPECT_EQ(map->node_of(8 * kFramesPerBlock), std::nullopt) << "a hole between blocks";
  EXPECT_EQ(map->node_of(32 * kFramesPerBlock + 5), 3);
  EXPECT_EQ(map->node_of(33 * kFramesPerBlock), std::nullopt);
  EXPECT_EQ(map->node_of(2), 0);
}

// A page-map reader keeps the span of the last frame, so a span must never claim a frame whose
// answer differs: it is exactly a run of blocks on one node, or exactly a hole.
TEST_F(FrameNodesTest, SpansAreWholeRunsOfOneNodeOrWholeHoles) {
  block_size("8000000\n");
  for (int number = 2; number < 4; ++number) {
    block(0, number);
  }
  for (int number = 4; number < 7; ++number) {
    block(1, number);
  }
  block(0, 9);
  block(0, 10);
  block(1, 10);  // on two nodes: unknown, like a hole
  auto map = read();
  ASSERT_TRUE(map.ok()) << map.error().message();
  struct Expected {
    std::uint64_t frame, first, end;
    std::optional<NodeId> node;
  };
  const std::uint64_t k = kFramesPerBlock;
  for (const auto& e : std::vector<Expected>{
           {0, 0, 2 * k, std::nullopt},          // below the first block
           {2 * k, 2 * k, 4 * k, 0},             // first frame of a run
           {4 * k - 1, 2 * k, 4 * k, 0},         // last frame of a run
           {4 * k, 4 * k, 7 * k, 1},             // the next run starts at once
           {8 * k, 7 * k, 9 * k, std::nullopt},  // a hole between runs
           {9 * k + 1, 9 * k, 10 * k, 0},        // a single block
           {10 * k, 10 * k, std::numeric_limits<std::uint64_t>::max(), std::nullopt},
       }) {
    auto span = map->span_of(e.frame);
    EXPECT_EQ(span.first, e.first) << "frame " << e.frame;
    EXPECT_EQ(span.end, e.end) << "frame " << e.frame;
    EXPECT_EQ(span.node, e.node) << "frame " << e.frame;
    EXPECT_TRUE(span.contains(e.frame)) << "frame " << e.frame;
    EXPECT_FALSE(span.contains(e.end)) << "frame " << e.frame;
    EXPECT_EQ(span.first == 0 || !span.contains(span.first - 1), true) << "frame " << e.frame;
  }
}

TEST_F(FrameNodesTest, InterleavedBlocksKeepTheirOwnNodes) {
  block_size("8000000");
  block(0, 0);
  block(1, 1);
  block(0, 2);
  block(1, 3);
  auto map = read();
  ASSERT_TRUE(map.ok()) << map.error().message();
  for (std::uint64_t number = 0; number < 4; ++number) {
    EXPECT_EQ(map->node_of(number * kFramesPerBlock + 7), static_cast<NodeId>(number % 2));
  }
}

TEST_F(FrameNodesTest, BlockListedUnderTwoNodesIsUnknown) {
  block_size("8000000");
  block(0, 0);
  block(0, 1);
  block(1, 1);
  auto map = read();
  ASSERT_TRUE(map.ok()) << map.error().message();
  EXPECT_EQ(map->node_of(0), 0);
  EXPECT_EQ(map->node_of(kFramesPerBlock), std::nullopt);
}

TEST_F(FrameNodesTest, OtherEntriesOfTheNodeDirectoriesAreIgnored) {
  block_size("8000000");
  block(0, 0);
  tree.make_dir("sys/devices/system/node/node0/memory_side_cache");
  tree.make_file("sys/devices/system/node/node0/memory12x", "");
  tree.make_file("sys/devices/system/node/possible", "0\n");
  tree.make_dir("sys/devices/system/node/nodeX/memory5");
  auto map = read();
  ASSERT_TRUE(map.ok()) << map.error().message();
  EXPECT_EQ(map->block_count(), 1u);
}

TEST_F(FrameNodesTest, LargerBlocksScaleTheFrameNumbers) {
  block_size("80000000\n");  // 2 GiB blocks, as on large servers
  block(0, 0);
  block(1, 1);
  auto map = read();
  ASSERT_TRUE(map.ok()) << map.error().message();
  EXPECT_EQ(map->node_of(16 * kFramesPerBlock - 1), 0);
  EXPECT_EQ(map->node_of(16 * kFramesPerBlock), 1);
}

TEST_F(FrameNodesTest, MissingBlockSizeIsAnErrorNamingTheFile) {
  block(0, 0);
  auto map = read();
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.error().message().find("block_size_bytes"), std::string::npos)
      << map.error().message();
}

TEST_F(FrameNodesTest, GarbageBlockSizesAreErrorsQuotingTheValue) {
  for (std::string_view text : {"", "zz", "8000000 extra", "0", "800", "-8000000", "8000001"}) {
    block_size(text);
    block(0, 0);
    auto map = read();
    ASSERT_FALSE(map.ok()) << "accepted \"" << text << "\"";
    EXPECT_NE(map.error().message().find("block size"), std::string::npos) << map.error().message();
  }
}

TEST_F(FrameNodesTest, NoListedBlocksIsAnError) {
  block_size("8000000");
  tree.make_dir("sys/devices/system/node/node0");
  auto map = read();
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.error().message().find("no memory blocks"), std::string::npos)
      << map.error().message();
}

TEST_F(FrameNodesTest, MissingNodeDirectoryIsAnError) {
  block_size("8000000");
  auto map = read();
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.error().message().find("devices/system/node"), std::string::npos)
      << map.error().message();
}

// The real host: the frame under one of our own pages is on the node the kernel says it is.
TEST(FrameNodesHost, FrameOfOurOwnPageIsOnTheNodeTheKernelNames) {
  auto map = FrameNodes::read("/sys");
  if (!map.ok()) {
    GTEST_SKIP() << "this kernel lists no memory blocks: " << map.error().message();
  }
  static char page[4096] __attribute__((aligned(4096)));
  page[0] = 1;
  int fd = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::uint64_t entry = 0;
  auto offset = static_cast<off_t>(reinterpret_cast<std::uintptr_t>(page) / 4096 * 8);
  ASSERT_EQ(::pread(fd, &entry, sizeof(entry), offset), static_cast<ssize_t>(sizeof(entry)));
  ::close(fd);
  std::uint64_t frame = entry & ((1ULL << 55) - 1);
  if (frame == 0) {
    GTEST_SKIP() << "frame numbers are hidden without CAP_SYS_ADMIN";
  }
  int node = -1;
  void* address = page;
  ASSERT_EQ(::get_mempolicy(&node, nullptr, 0, address, MPOL_F_NODE | MPOL_F_ADDR), 0);
  EXPECT_EQ(map->node_of(frame), node);
}

}  // namespace
}  // namespace nb::actuator
