#include "actuator/walk_order.hpp"

#include <gtest/gtest.h>

#include <map>
#include <vector>

// The spans a process is walked in: hottest DAMON region first, the rest in address order, every
// byte of every VMA on the source exactly once.

namespace nb::actuator {
namespace {

constexpr std::uintptr_t kStart = 0x10000000;
constexpr std::uintptr_t kMiBytes = 1024 * 1024;

Vma vma_on(std::uintptr_t start, std::uintptr_t end, NodeId node = 0) {
  Vma vma;
  vma.start = start;
  vma.end = end;
  vma.pages_on_node[node] = static_cast<std::int64_t>((end - start) / 4096);
  return vma;
}

// Every byte of each VMA on the source lies in exactly one span.
void expect_partition(const std::vector<Vma>& vmas, const std::vector<WalkSpan>& spans) {
  std::map<std::size_t, std::map<std::uintptr_t, std::uintptr_t>> by_vma;
  for (const auto& span : spans) {
    ASSERT_LT(span.start, span.end);
    ASSERT_GE(span.start, vmas[span.vma].start);
    ASSERT_LE(span.end, vmas[span.vma].end);
    ASSERT_TRUE(by_vma[span.vma].emplace(span.start, span.end).second);
  }
  for (auto& [index, pieces] : by_vma) {
    std::uintptr_t at = vmas[index].start;
    for (auto [start, end] : pieces) {
      EXPECT_EQ(start, at) << "a gap or an overlap in VMA " << index;
      at = end;
    }
    EXPECT_EQ(at, vmas[index].end);
  }
}

TEST(WalkOrder, WithoutRegionsEachVmaOnTheSourceIsOneSpanInAddressOrder) {
  std::vector<Vma> vmas = {vma_on(kStart, kStart + 4 * kMiBytes),
                           vma_on(kStart + 8 * kMiBytes, kStart + 12 * kMiBytes, 1),
                           vma_on(kStart + 16 * kMiBytes, kStart + 20 * kMiBytes)};
  auto spans = walk_order(vmas, 0, nullptr);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].vma, 0u);
  EXPECT_EQ(spans[1].vma, 2u);
  EXPECT_FALSE(spans[0].accessed);
  EXPECT_EQ(spans[1].start, kStart + 16 * kMiBytes);
  EXPECT_EQ(spans[1].end, kStart + 20 * kMiBytes);
}

TEST(WalkOrder, TheHotRegionAtTheEndGoesFirstAndTheRestFollowsInAddressOrder) {
  std::vector<Vma> vmas = {vma_on(kStart, kStart + 128 * kMiBytes)};
  std::vector<DamonRegion> regions = {{kStart, kStart + 112 * kMiBytes, 0, 40},
                                      {kStart + 112 * kMiBytes, kStart + 128 * kMiBytes, 19, 8}};
  auto spans = walk_order(vmas, 0, &regions);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].start, kStart + 112 * kMiBytes);
  EXPECT_TRUE(spans[0].accessed);
  EXPECT_EQ(spans[1].start, kStart);
  EXPECT_EQ(spans[1].end, kStart + 112 * kMiBytes);
  EXPECT_FALSE(spans[1].accessed) << "a region never seen accessed is not hot";
}

TEST(WalkOrder, HotterRegionsGoFirstThenOlderOnesAtTheSameRate) {
  std::vector<Vma> vmas = {vma_on(kStart, kStart + 64 * kMiBytes)};
  std::vector<DamonRegion> regions = {{kStart, kStart + 16 * kMiBytes, 3, 50},
                                      {kStart + 16 * kMiBytes, kStart + 32 * kMiBytes, 9, 1},
                                      {kStart + 32 * kMiBytes, kStart + 48 * kMiBytes, 3, 70},
                                      {kStart + 48 * kMiBytes, kStart + 64 * kMiBytes, 0, 90}};
  auto spans = walk_order(vmas, 0, &regions);
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(spans[0].start, kStart + 16 * kMiBytes);
  EXPECT_EQ(spans[1].start, kStart + 32 * kMiBytes);
  EXPECT_EQ(spans[2].start, kStart);
  EXPECT_EQ(spans[3].start, kStart + 48 * kMiBytes);
  EXPECT_FALSE(spans[3].accessed);
  expect_partition(vmas, spans);
}

TEST(WalkOrder, ARegionIsWidenedToHugePageBoundariesAndClippedToEachVma) {
  // Two VMAs; a hot region from mid-first to mid-second, unaligned at both ends.
  std::vector<Vma> vmas = {vma_on(kStart, kStart + 10 * kMiBytes),
                           vma_on(kStart + 10 * kMiBytes, kStart + 20 * kMiBytes)};
  std::vector<DamonRegion> regions = {
      {kStart + 7 * kMiBytes + 4096, kStart + 13 * kMiBytes - 4096, 4, 1}};
  auto spans = walk_order(vmas, 0, &regions);
  ASSERT_GE(spans.size(), 2u);
  EXPECT_EQ(spans[0].vma, 0u);
  EXPECT_EQ(spans[0].start, kStart + 6 * kMiBytes);
  EXPECT_EQ(spans[0].end, kStart + 10 * kMiBytes);
  EXPECT_EQ(spans[1].vma, 1u);
  EXPECT_EQ(spans[1].start, kStart + 10 * kMiBytes);
  EXPECT_EQ(spans[1].end, kStart + 14 * kMiBytes);
  expect_partition(vmas, spans);
}

TEST(WalkOrder, RegionsWidenedOntoTheSameHugePageAreWalkedOnce) {
  std::vector<Vma> vmas = {vma_on(kStart, kStart + 16 * kMiBytes)};
  std::vector<DamonRegion> regions = {{kStart + 4 * kMiBytes, kStart + 5 * kMiBytes, 9, 1},
                                      {kStart + 5 * kMiBytes, kStart + 9 * kMiBytes, 8, 1},
                                      {kStart + 3 * kMiBytes, kStart + 11 * kMiBytes, 7, 1}};
  auto spans = walk_order(vmas, 0, &regions);
  expect_partition(vmas, spans);
  EXPECT_EQ(spans[0].start, kStart + 4 * kMiBytes);
  EXPECT_EQ(spans[0].end, kStart + 6 * kMiBytes);
  EXPECT_EQ(spans[1].start, kStart + 6 * kMiBytes);
  EXPECT_EQ(spans[1].end, kStart + 10 * kMiBytes);
}

TEST(WalkOrder, RegionsOutsideEveryVmaOnTheSourceAddNothing) {
  std::vector<Vma> vmas = {vma_on(kStart, kStart + 4 * kMiBytes),
                           vma_on(kStart + 64 * kMiBytes, kStart + 68 * kMiBytes, 1)};
  std::vector<DamonRegion> regions = {{kStart + 64 * kMiBytes, kStart + 68 * kMiBytes, 20, 9}};
  auto spans = walk_order(vmas, 0, &regions);
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].vma, 0u);
  EXPECT_FALSE(spans[0].accessed);
}

TEST(WalkOrder, AHugetlbVmaIsCutOnlyOnItsOwnPageBoundaries) {
  Vma huge = vma_on(0x40000000, 0x40000000 + 4 * 1024 * kMiBytes);
  huge.page_size = kGiB;
  huge.hugetlb = true;
  std::vector<Vma> vmas = {huge};
  std::vector<DamonRegion> regions = {
      {0x40000000 + 1536 * kMiBytes, 0x40000000 + 1600 * kMiBytes, 5, 5}};
  auto spans = walk_order(vmas, 0, &regions);
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0].start, 0x40000000 + 1024 * kMiBytes);
  EXPECT_EQ(spans[0].end, 0x40000000 + 2048 * kMiBytes);
  expect_partition(vmas, spans);
}

}  // namespace
}  // namespace nb::actuator
