#include "actuator/page_walk.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tests/actuator/job_fixture.hpp"

// The walk inside a job: which pages are asked about and how the page map is read.

namespace nb::actuator {
namespace {

using testing::FakeMemory;
using testing::kBase;
using testing::kPage;

class JobWalk : public testing::JobFixture {};

TEST_F(JobWalk, WalkAsksOnlyAboutResidentPagesOfVmasOnTheSource) {
  // A VMA entirely on node 1 and a sparse 1 GiB VMA with 10 pages on node 0.
  add_process(100, 500, 1);
  std::uintptr_t sparse = 0x80000000;
  memory.add_vma(100, sparse, sparse + static_cast<std::uintptr_t>(kGiB));
  for (int i = 0; i < 10; ++i) {
    memory.add_pages(100, sparse + static_cast<std::uintptr_t>(i * 64 * kMiB), 1, 0);
  }
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 10 * kPage);
  EXPECT_EQ(report.pages_scanned(), 10);
  for (const auto& call : memory.calls) {
    for (auto address : call.pages) {
      EXPECT_GE(address, sparse);
    }
  }
}

TEST_F(JobWalk, PageMapOfAHugeVmaIsReadInGrowingWindowsThatCoverItOnce) {
  // 4 TiB reserved (a sanitizer's shadow, a JVM heap) with its only pages at the far end.
  const auto size = std::uintptr_t{4} << 40;
  const std::uintptr_t start = std::uintptr_t{1} << 44;
  memory.add_vma(100, start, start + size);
  memory.add_pages(100, start + size - 8 * kPage, 8, 0);
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 8 * kPage);
  ASSERT_FALSE(memory.resident_reads.empty());
  EXPECT_LE(memory.resident_reads.size(), 20u) << "one read per 256 MiB would be 16,384";
  std::uintptr_t expected_start = start;
  for (const auto& [from, to] : memory.resident_reads) {
    EXPECT_EQ(from, expected_start) << "windows are contiguous";
    EXPECT_EQ(to % (2 * kMiB), 0u) << "windows end on huge-page boundaries";
    expected_start = to;
  }
  EXPECT_EQ(expected_start, start + size);
}

TEST_F(JobWalk, PageMapIsNotReadBeyondTheWindowWhereTheSourceCountIsFound) {
  const std::uintptr_t start = std::uintptr_t{1} << 40;
  memory.add_vma(100, start, start + static_cast<std::uintptr_t>(16 * kGiB));
  memory.add_pages(100, start, 100, 0);
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 100 * kPage);
  EXPECT_EQ(memory.resident_reads.size(), 1u);
}

TEST_F(JobWalk, WithoutPageMapEveryPageIsAskedUntilTheSourceCountIsFound) {
  memory.add_vma(100, kBase, kBase + 10000 * kPage);
  memory.add_pages(100, kBase, 5, 0);
  memory.resident_failure = EPERM;
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 5 * kPage);
  EXPECT_EQ(report.pages_scanned(), 4096);  // one query chunk, then numa_maps' count was found
}

std::size_t query_calls(const FakeMemory& memory) {
  return static_cast<std::size_t>(std::count_if(memory.calls.begin(), memory.calls.end(),
                                                [](const auto& call) { return call.query; }));
}

TEST_F(JobWalk, PagesThePageMapPlacesAreMovedWithoutAskingWhereTheyAre) {
  // One VMA: 200 pages on node 2 first, then 300 on the source.
  memory.pages_placed = true;
  memory.add_vma(100, kBase, kBase + 500 * kPage);
  memory.add_pages(100, kBase, 200, 2);
  memory.add_pages(100, kBase + 200 * kPage, 300, 0);
  auto report = run({target(100)});
  EXPECT_EQ(query_calls(memory), 0u);
  EXPECT_EQ(report.outcomes().moved, 300);
  EXPECT_EQ(memory.bytes_on(100, 0), 0);
  EXPECT_EQ(memory.bytes_on(100, 2), 200 * kPage) << "pages on another node stay where they are";
  EXPECT_EQ(report.pages_scanned(), 500);
  EXPECT_EQ(report.containers.at(0).processes.at(0).bytes_on_source, 300 * kPage);
  EXPECT_TRUE(report.threshold_met);
}

TEST_F(JobWalk, PlacedPagesStillStopAtTheBudgetAndTheSourceCount) {
  memory.pages_placed = true;
  const std::uintptr_t start = std::uintptr_t{1} << 40;
  memory.add_vma(100, start, start + static_cast<std::uintptr_t>(16 * kGiB));
  memory.add_pages(100, start, 10000, 0);
  options.budget = kMiB;
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), kMiB);
  EXPECT_EQ(report.stop_reason, StopReason::budget_met);
  EXPECT_EQ(memory.resident_reads.size(), 1u);
  EXPECT_EQ(query_calls(memory), 0u);
}

TEST_F(JobWalk, SharedPagesAreStillAskedAboutWhenThePageMapPlacesThem) {
  memory.pages_placed = true;
  add_process(100, 10);
  memory.page(100, kBase + 4 * kPage).shared = true;
  auto report = run({target(100)});
  std::vector<std::uintptr_t> asked;
  for (const auto& call : memory.calls) {
    if (call.query) {
      asked.insert(asked.end(), call.pages.begin(), call.pages.end());
    }
  }
  EXPECT_EQ(asked, (std::vector<std::uintptr_t>{kBase + 4 * kPage}));
  EXPECT_EQ(report.outcomes().access_denied, 1);
  EXPECT_EQ(report.outcomes().moved, 9);
}

TEST_F(JobWalk, PlacedHugePagesMoveWholeByTheirHeads) {
  memory.pages_placed = true;
  memory.add_vma(100, kBase, kBase + 4 * 2 * kMiB);
  memory.add_pages(100, kBase, 4, 0, 2 * kMiB);
  auto report = run({target(100)});
  EXPECT_EQ(query_calls(memory), 0u);
  EXPECT_EQ(report.bytes_moved(), 8 * kMiB);
  for (const auto& call : memory.calls) {
    for (auto address : call.pages) {
      EXPECT_EQ((address - kBase) % (2 * kMiB), 0u);
    }
  }
}

// The walk on its own: one VMA, with a drain that records what it was handed.
class Walk : public testing::JobFixture {
 protected:
  Vma vma_of(int pid) {
    auto vmas = read_process_vmas(tree.path("proc"), pid);
    EXPECT_TRUE(vmas.ok());
    return vmas.ok() && !vmas->empty() ? vmas->front() : Vma{};
  }

  bool walk(const Vma& vma, bool drain_answer = true) {
    process.start(pinned ? *pinned : pin(100));
    PageWalk page_walk(memory, tree.path("proc"), ledger, options.source_node);
    return page_walk.walk(vma, process, report, [&] {
      drained.push_back(process.pending.size());
      return drain_answer;
    });
  }

  JobLedger ledger{kUnlimitedBudget};
  ProcessMove process;
  ProcessReport report;
  std::vector<std::size_t> drained;  // how many pages waited at each drain
};

TEST_F(Walk, QueuesThePagesOnTheSourceAndStopsOnceNumaMapsCountIsFound) {
  memory.add_vma(100, kBase, kBase + 10000 * kPage);
  memory.add_pages(100, kBase, 3000, 0);
  memory.add_pages(100, kBase + 3000 * kPage, 7000, 1);
  EXPECT_TRUE(walk(vma_of(100)));
  EXPECT_EQ(drained, std::vector<std::size_t>{3000});  // one query chunk held all of them
  EXPECT_EQ(process.pending.size(), 3000u);
  EXPECT_EQ(process.pending.front(1)[0].address, kBase);
  EXPECT_EQ(report.pages_scanned, static_cast<std::int64_t>(PageWalk::kQueryChunk));
  EXPECT_EQ(report.bytes_on_source, 3000 * kPage);
  EXPECT_EQ(report.syscalls, 1);
  EXPECT_FALSE(process.done);
}

TEST_F(Walk, PlacedPagesNeedNoQuery) {
  memory.pages_placed = true;
  add_process(100, 100);
  EXPECT_TRUE(walk(vma_of(100)));
  EXPECT_EQ(process.pending.size(), 100u);
  EXPECT_EQ(report.syscalls, 0);
  EXPECT_EQ(report.pages_scanned, 100);
}

TEST_F(Walk, ADrainThatSaysStopEndsTheWalk) {
  memory.add_vma(100, kBase, kBase + 10000 * kPage);
  memory.add_pages(100, kBase, 10000, 0);
  EXPECT_FALSE(walk(vma_of(100), false));
  EXPECT_EQ(drained.size(), 1u);
  EXPECT_FALSE(process.done);
}

TEST_F(Walk, AProcessGoneBeforeItsPageMapIsReadIsVanished) {
  add_process(100, 100);
  Vma vma = vma_of(100);
  pin(100);  // as the plan pinned it
  memory.exit_process(100);
  EXPECT_FALSE(walk(vma));
  EXPECT_TRUE(report.vanished);
  EXPECT_TRUE(drained.empty());
  EXPECT_TRUE(ledger.report().errors.empty());
}

}  // namespace
}  // namespace nb::actuator
