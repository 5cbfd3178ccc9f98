#include "actuator/migration_job.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tests/actuator/job_fixture.hpp"

namespace nb::actuator {
namespace {

using testing::FakeMemory;
using testing::InjectedFailure;
using testing::kBase;
using testing::kPage;

class MigrationJob : public testing::JobFixture {};

TEST_F(MigrationJob, MovesEveryPageOnTheSourceToTheDestination) {
  add_process(100, 1000);
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 1000 * kPage);
  EXPECT_EQ(report.bytes_moved_to().at(1), 1000 * kPage);
  EXPECT_EQ(memory.bytes_on(100, 0), 0);
  EXPECT_EQ(memory.bytes_on(100, 1), 1000 * kPage);
  ASSERT_EQ(report.containers.size(), 1u);
  const auto& process = report.containers[0].processes.at(0);
  EXPECT_EQ(process.outcomes.moved, 1000);
  EXPECT_EQ(process.pages_scanned, 1000);
  EXPECT_EQ(process.bytes_on_source, 1000 * kPage);
  EXPECT_GT(process.syscalls, 1);
  EXPECT_GT(process.longest_call.count(), 0);
  EXPECT_TRUE(report.threshold_met);
  EXPECT_EQ(report.stop_reason, StopReason::completed);
  EXPECT_EQ(report.goal, 1000 * kPage);
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back().moved, 1000 * kPage);
}

TEST_F(MigrationJob, StopsExactlyAtTheBudget) {
  add_process(100, 1000);
  options.budget = kMiB;
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), kMiB);
  EXPECT_EQ(memory.bytes_on(100, 1), kMiB);
  EXPECT_EQ(report.stop_reason, StopReason::budget_met);
  EXPECT_EQ(report.goal, kMiB);
  EXPECT_TRUE(report.threshold_met);
}

TEST_F(MigrationJob, HugePagesMoveByHeadAddressAndOvershootByAtMostOneHugePage) {
  memory.add_vma(100, kBase, kBase + 10 * 2 * kMiB);
  memory.add_pages(100, kBase, 10, 0, 2 * kMiB);
  options.budget = 3 * kMiB;
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 4 * kMiB);
  EXPECT_LE(report.bytes_moved(), options.budget + 2 * kMiB);
  EXPECT_EQ(memory.bytes_on(100, 1), 4 * kMiB);
  for (const auto& call : memory.calls) {
    for (auto address : call.pages) {
      EXPECT_EQ(address % (2 * kMiB), 0u) << "not a head address: " << std::hex << address;
    }
  }
  EXPECT_EQ(report.containers[0].processes[0].outcomes.moved, 2 * 512);
}

TEST_F(MigrationJob, HugePageCallsGrowPastFourThousandBasePagesTowardTheCallTarget) {
  // 256 MiB of transparent huge pages at 1 us per 4 KiB: a 20 ms call holds about 39 of them.
  memory.add_vma(100, kBase, kBase + 128 * 2 * kMiB);
  memory.add_pages(100, kBase, 128, 0, 2 * kMiB);
  memory.cost_per_page = std::chrono::microseconds(1);
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 256 * kMiB);
  auto sizes = move_call_sizes();
  ASSERT_FALSE(sizes.empty());
  std::size_t largest = *std::max_element(sizes.begin(), sizes.end());
  EXPECT_GT(largest * 512, 4096u) << "capped at 4096 base pages: " << largest << " huge pages";
  EXPECT_LE(largest, 40u) << "a call beyond the 20 ms target";
  EXPECT_EQ(sizes.front(), 1u) << "the first call is one huge page, at least the 64-page minimum";
}

TEST_F(MigrationJob, ThresholdIsMissedWhenTooLittleCouldMove) {
  memory.add_node(1, 16 * kGiB, kGiB + 400 * kPage);  // 400 pages above the floor
  add_process(100, 1000);
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 400 * kPage);
  EXPECT_FALSE(report.threshold_met);
  EXPECT_EQ(report.stop_reason, StopReason::no_destination);
  ASSERT_EQ(report.dropped_destinations.size(), 1u);
  EXPECT_EQ(report.dropped_destinations[0].node, 1);
}

TEST_F(MigrationJob, BatchSizeAdaptsSoEachCallTakesAboutTheCallTarget) {
  add_process(100, 40000);
  memory.cost_per_page = std::chrono::microseconds(10);
  memory.cost_per_call = Clock::duration::zero();
  options.call_target = std::chrono::milliseconds(20);
  auto report = run({target(100)});
  auto sizes = move_call_sizes();
  ASSERT_GT(sizes.size(), 7u);
  // Doubling from the minimum, then the 2,000 pages that take 20 ms.
  EXPECT_EQ(std::vector<std::size_t>(sizes.begin(), sizes.begin() + 6),
            (std::vector<std::size_t>{64, 128, 256, 512, 1024, 2000}));
  for (std::size_t i = 6; i + 1 < sizes.size(); ++i) {
    EXPECT_EQ(sizes[i], 2000u) << "call " << i;
  }
  EXPECT_LE(report.longest_call(), std::chrono::milliseconds(21));
}

TEST_F(MigrationJob, BatchSizeStaysWithin64And4096Pages) {
  add_process(100, 20000);
  memory.cost_per_page = std::chrono::nanoseconds(100);
  auto sizes_fast = (run({target(100)}), move_call_sizes());
  EXPECT_EQ(*std::max_element(sizes_fast.begin(), sizes_fast.end()), 4096u);

  memory.calls.clear();
  add_process(200, 2000, 0, 0x40000000);
  memory.cost_per_page = std::chrono::milliseconds(2);
  run({target(200)});
  auto sizes_slow = move_call_sizes();
  ASSERT_EQ(sizes_slow.size(), 32u);  // 2000 pages: 31 calls of 64 and the remaining 16
  for (std::size_t i = 0; i + 1 < sizes_slow.size(); ++i) {
    EXPECT_EQ(sizes_slow[i], 64u);
  }
  EXPECT_EQ(sizes_slow.back(), 16u);
}

TEST_F(MigrationJob, DestinationsShareTheWorkByFreeMemoryAboveTheFloor) {
  memory.add_node(1, 16 * kGiB, kGiB + 3 * 256 * kMiB);  // 768 MiB of headroom
  memory.add_node(2, 16 * kGiB, kGiB + 256 * kMiB);      // 256 MiB
  add_process(100, 64 * 1024);                           // 256 MiB
  memory.cost_per_page = std::chrono::microseconds(20);  // 1000-page batches
  auto report = run({target(100, {1, 2})});
  auto to = report.bytes_moved_to();
  EXPECT_EQ(to[1] + to[2], 256 * kMiB);
  double ratio = static_cast<double>(to[1]) / static_cast<double>(to[2]);
  EXPECT_NEAR(ratio, 3.0, 0.2);
}

TEST_F(MigrationJob, EqualHeadroomFollowsDecisionOrderFirst) {
  add_process(100, 64);
  auto report = run({target(100, {2, 1})});
  EXPECT_EQ(report.bytes_moved_to().at(2), 64 * kPage);
}

TEST_F(MigrationJob, DestinationAnsweringEnomemIsDroppedAndOthersCarryOn) {
  memory.enomem_nodes.insert(1);
  add_process(100, 1000);
  auto report = run({target(100, {1, 2})});
  EXPECT_EQ(report.bytes_moved(), 1000 * kPage);
  EXPECT_EQ(report.bytes_moved_to().count(1), 0u);
  EXPECT_EQ(report.bytes_moved_to().at(2), 1000 * kPage);
  EXPECT_GT(report.outcomes().no_memory, 0);
  ASSERT_EQ(report.dropped_destinations.size(), 1u);
  EXPECT_EQ(report.dropped_destinations[0].node, 1);
  EXPECT_TRUE(report.threshold_met);
}

TEST_F(MigrationJob, CallLevelEnomemDropsTheDestinationAndRetriesElsewhere) {
  memory.move_failures.push_back(InjectedFailure{ENOMEM, 0});
  add_process(100, 100);
  auto report = run({target(100, {1, 2})});
  EXPECT_EQ(report.bytes_moved_to().at(2), 100 * kPage);
  EXPECT_EQ(report.dropped_destinations.at(0).node, 1);
}

TEST_F(MigrationJob, DestinationFallingToItsFloorMidJobIsDroppedAtTheNextRead) {
  add_process(100, 5000);
  memory.cost_per_page = std::chrono::microseconds(100);  // 200-page batches of 20 ms
  bool filled = false;
  auto report = run_migration({target(100, {1, 2})}, options, memory, tree.path("proc"), cancel,
                              [this, &filled](const JobProgress&) {
                                // Something else fills node 1 after the first batch.
                                if (!filled) {
                                  memory.add_node(1, 16 * kGiB, kGiB - kMiB);
                                  filled = true;
                                }
                              });
  EXPECT_EQ(report.bytes_moved(), 5000 * kPage);
  // Free memory is read again within 100 ms: node 1 takes at most that long's share.
  EXPECT_GE(report.bytes_moved_to().at(1), 64 * kPage);
  EXPECT_LE(report.bytes_moved_to().at(1), 1000 * kPage);
  EXPECT_GE(report.bytes_moved_to().at(2), 4000 * kPage);
  ASSERT_EQ(report.dropped_destinations.size(), 1u);
  EXPECT_EQ(report.dropped_destinations[0].node, 1);
  EXPECT_NE(report.dropped_destinations[0].reason.find("floor"), std::string::npos);
}

TEST_F(MigrationJob, FreeMemoryIsReadEveryHundredMillisecondsNotEveryBatch) {
  add_process(100, 5000);
  memory.cost_per_page = std::chrono::microseconds(100);  // 25 batches over 500 ms
  auto report = run({target(100, {1, 2})});
  EXPECT_EQ(report.bytes_moved(), 5000 * kPage);
  EXPECT_GE(move_call_sizes().size(), 25u);
  // Two destinations: the read at the start, then one every 100 ms of the 500.
  EXPECT_LE(memory.node_memory_calls, 2 * (1 + 6));
  EXPECT_GE(memory.node_memory_calls, 2 * 4);
}

TEST_F(MigrationJob, DestinationNearItsFloorIsReadBeforeEveryBatch) {
  // Node 1 starts 600 pages above its floor, well within four batches of it.
  memory.add_node(1, 16 * kGiB, kGiB + 600 * kPage);
  add_process(100, 5000);
  memory.cost_per_page = std::chrono::microseconds(100);
  auto report = run({target(100, {1})});
  EXPECT_EQ(report.bytes_moved(), 600 * kPage);
  EXPECT_GE(memory.node_memory_calls, static_cast<int>(move_call_sizes().size()));
}

TEST_F(MigrationJob, UnknownDestinationIsDroppedAsNoDestination) {
  add_process(100, 10);
  auto report = run({target(100, {7})});
  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_EQ(report.stop_reason, StopReason::no_destination);
  EXPECT_NE(report.dropped_destinations.at(0).reason.find("node 7"), std::string::npos);
}

TEST_F(MigrationJob, RateLimitPacesMovesOnTheInjectedClock) {
  add_process(100, 1024);  // 4 MiB
  options.rate_limit_mib_per_s = 1;
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 4 * kMiB);
  // The first 100 ms of burst is free; the other 3.9 MiB take 3.9 s.
  EXPECT_GE(report.elapsed, std::chrono::milliseconds(3800));
  EXPECT_LE(report.rate_mib_per_s(), 1.06);
  EXPECT_GT(memory.slept.count(), 0);
}

TEST_F(MigrationJob, UnlimitedRateNeverSleeps) {
  add_process(100, 1024);
  run({target(100)});
  EXPECT_EQ(memory.slept.count(), 0);
}

TEST_F(MigrationJob, CancelIsHonouredBetweenBatchesAndReportsWhatMoved) {
  add_process(100, 1000);
  memory.cost_per_page = std::chrono::microseconds(100);  // 200-page batches
  memory.cancel_flag = &cancel;
  memory.cancel_after_moves = 2;
  auto report = run({target(100)});
  EXPECT_EQ(report.stop_reason, StopReason::cancelled);
  EXPECT_EQ(memory.move_calls, 2);
  EXPECT_GT(report.bytes_moved(), 0);
  EXPECT_LT(report.bytes_moved(), 1000 * kPage);
  EXPECT_EQ(report.bytes_moved(), memory.bytes_on(100, 1));
}

TEST_F(MigrationJob, DeadlineStopsTheJobBetweenBatches) {
  add_process(100, 10000);
  memory.cost_per_page = std::chrono::microseconds(100);
  options.deadline = std::chrono::milliseconds(100);
  auto report = run({target(100)});
  EXPECT_EQ(report.stop_reason, StopReason::deadline);
  EXPECT_GT(report.bytes_moved(), 0);
  EXPECT_LT(report.bytes_moved(), 10000 * kPage);
  EXPECT_LT(report.elapsed, std::chrono::milliseconds(130));
}

TEST_F(MigrationJob, BusyPageIsRetriedOnce) {
  add_process(100, 10);
  memory.page(100, kBase).busy_answers = 1;
  memory.page(100, kBase + kPage).busy_answers = 2;
  auto report = run({target(100)});
  const auto& outcomes = report.containers[0].processes[0].outcomes;
  EXPECT_EQ(outcomes.moved, 9);
  EXPECT_EQ(outcomes.busy, 1);
  EXPECT_EQ(memory.page(100, kBase).node, 1);
  EXPECT_EQ(memory.page(100, kBase + kPage).node, 0);
}

TEST_F(MigrationJob, PositiveReturnIsCheckedAgainstWherePagesReallyAre) {
  add_process(100, 10);
  memory.silent_failures[kBase] = 1;            // fails once, then moves on the retry
  memory.silent_failures[kBase + kPage] = 100;  // never moves
  auto report = run({target(100)});
  EXPECT_EQ(report.outcomes().moved, 9);
  EXPECT_EQ(report.outcomes().busy, 1);
  EXPECT_EQ(report.bytes_moved(), 9 * kPage);
  EXPECT_EQ(memory.page(100, kBase).node, 1);
  EXPECT_EQ(memory.page(100, kBase + kPage).node, 0);
}

TEST_F(MigrationJob, HugePageBusyQuirkCountsTheWholeHugePageAsMoved) {
  memory.add_vma(100, kBase, kBase + 4 * 2 * kMiB);
  memory.add_pages(100, kBase, 4, 0, 2 * kMiB);
  memory.huge_page_quirk = true;
  memory.resident_failure = EPERM;  // no page map: every 4 KiB address is asked about
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 8 * kMiB);
  EXPECT_EQ(report.outcomes().busy, 0);
  EXPECT_EQ(report.outcomes().moved, 4 * 512);
  EXPECT_EQ(memory.bytes_on(100, 1), 8 * kMiB);
}

TEST_F(MigrationJob, FastPathHandsASmallWholeFootprintToMigratePages) {
  add_process(100, 256);
  options.fast_path_max_bytes = 16 * kMiB;
  auto report = run({target(100)});
  EXPECT_EQ(memory.migrate_calls, 1);
  EXPECT_EQ(memory.move_calls, 0);
  const auto& process = report.containers[0].processes[0];
  EXPECT_TRUE(process.fast_path);
  EXPECT_EQ(process.bytes_moved(), kMiB);
  EXPECT_EQ(memory.bytes_on(100, 1), kMiB);
  EXPECT_TRUE(report.threshold_met);
}

struct FastPathCase {
  const char* name;
  Bytes fast_path_max;
  Bytes budget;
  std::int64_t map_max;
  bool move_shared;
  Bytes dest_headroom;
  bool expect_fast_path;
};

// Without it gtest prints the struct's bytes, padding included (valgrind: uninitialised).
void PrintTo(const FastPathCase& c, std::ostream* os) {
  *os << c.name;
}

class FastPathChoice : public MigrationJob, public ::testing::WithParamInterface<FastPathCase> {};

TEST_P(FastPathChoice, UsesMigratePagesOnlyWhenEverythingFits) {
  const auto& param = GetParam();
  memory.add_node(1, 16 * kGiB, kGiB + param.dest_headroom);
  memory.add_vma(100, kBase, kBase + 256 * kPage).map_max = param.map_max;
  memory.add_pages(100, kBase, 256, 0);
  options.fast_path_max_bytes = param.fast_path_max;
  options.budget = param.budget;
  options.move_shared = param.move_shared;
  run({target(100)});
  EXPECT_EQ(memory.migrate_calls, param.expect_fast_path ? 1 : 0);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, FastPathChoice,
    ::testing::Values(
        FastPathCase{"Fits", 16 * kMiB, kGiB, 1, false, kGiB, true},
        FastPathCase{"Disabled", 0, kGiB, 1, false, kGiB, false},
        FastPathCase{"LargerThanFastPathLimit", 512 * kKiB, kGiB, 1, false, kGiB, false},
        FastPathCase{"LargerThanBudget", 16 * kMiB, 512 * kKiB, 1, false, kGiB, false},
        FastPathCase{"SharedPagesWithoutMoveShared", 16 * kMiB, kGiB, 2, false, kGiB, false},
        FastPathCase{"SharedPagesWithMoveShared", 16 * kMiB, kGiB, 2, true, kGiB, true},
        FastPathCase{"NoDestinationCanTakeIt", 16 * kMiB, kGiB, 1, false, 512 * kKiB, false}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(MigrationJob, FastPathEpermIsReportedWithCapabilityHint) {
  add_process(100, 16);
  options.fast_path_max_bytes = 16 * kMiB;
  memory.migrate_failure = EPERM;
  auto report = run({target(100)});
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].code, EPERM);
  EXPECT_NE(report.errors[0].hint.find("CAP_SYS_NICE"), std::string::npos);
  EXPECT_EQ(memory.move_calls, 0);
}

TEST_F(MigrationJob, MoveEpermIsReportedWithCapabilityHint) {
  add_process(100, 16);
  memory.move_failures.push_back(InjectedFailure{EPERM, 0});
  auto report = run({target(100)});
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].pid, 100);
  EXPECT_NE(report.errors[0].hint.find("CAP_SYS_PTRACE"), std::string::npos);
  EXPECT_FALSE(report.threshold_met);
}

TEST_F(MigrationJob, CpusetRefusalExcludesTheNodeForThatProcessOnly) {
  memory.move_failures.push_back(InjectedFailure{EACCES, 0});
  add_process(100, 100);
  auto report = run({target(100, {1, 2})});
  EXPECT_EQ(report.bytes_moved_to().at(2), 100 * kPage);
  EXPECT_EQ(report.bytes_moved_to().count(1), 0u);
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_NE(report.errors[0].message.find("cpuset"), std::string::npos);
  EXPECT_TRUE(report.dropped_destinations.empty());
}

TEST_F(MigrationJob, CallFailingMidwayKeepsWhatItMovedAndRetriesTheRest) {
  memory.move_failures.push_back(InjectedFailure{ENOMEM, 30});
  add_process(100, 64);
  auto report = run({target(100, {1, 2})});
  EXPECT_EQ(report.bytes_moved_to().at(1), 30 * kPage);
  EXPECT_EQ(report.bytes_moved_to().at(2), 34 * kPage);
}

TEST_F(MigrationJob, SharedPagesAnswerEaccesUnlessMoveShared) {
  add_process(100, 10);
  memory.page(100, kBase).shared = true;
  auto report = run({target(100)});
  EXPECT_EQ(report.outcomes().access_denied, 1);
  EXPECT_EQ(report.outcomes().moved, 9);

  memory.calls.clear();
  options.move_shared = true;
  auto shared = run({target(100)});
  EXPECT_EQ(shared.outcomes().moved, 1);
  for (const auto& call : memory.calls) {
    EXPECT_TRUE(call.query || call.move_all);
  }
}

TEST_F(MigrationJob, OtherCallErrorsStopTheProcessWithAnError) {
  memory.move_failures.push_back(InjectedFailure{EINVAL, 0});
  add_process(100, 10);
  auto report = run({target(100)});
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].code, EINVAL);
  EXPECT_EQ(report.bytes_moved(), 0);
}

TEST_F(MigrationJob, WalkAsksOnlyAboutResidentPagesOfVmasOnTheSource) {
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

TEST_F(MigrationJob, PageMapOfAHugeVmaIsReadInGrowingWindowsThatCoverItOnce) {
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

TEST_F(MigrationJob, PageMapIsNotReadBeyondTheWindowWhereTheSourceCountIsFound) {
  const std::uintptr_t start = std::uintptr_t{1} << 40;
  memory.add_vma(100, start, start + static_cast<std::uintptr_t>(16 * kGiB));
  memory.add_pages(100, start, 100, 0);
  auto report = run({target(100)});
  EXPECT_EQ(report.bytes_moved(), 100 * kPage);
  EXPECT_EQ(memory.resident_reads.size(), 1u);
}

TEST_F(MigrationJob, WithoutPageMapEveryPageIsAskedUntilTheSourceCountIsFound) {
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

TEST_F(MigrationJob, PagesThePageMapPlacesAreMovedWithoutAskingWhereTheyAre) {
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

TEST_F(MigrationJob, PlacedPagesStillStopAtTheBudgetAndTheSourceCount) {
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

TEST_F(MigrationJob, SharedPagesAreStillAskedAboutWhenThePageMapPlacesThem) {
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

TEST_F(MigrationJob, PlacedHugePagesMoveWholeByTheirHeads) {
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

TEST_F(MigrationJob, CgroupProcessesIncludeChildCgroupsAndVanishedPidsAreCounted) {
  add_process(100, 100);
  add_process(200, 50);
  tree.make_file("cg/pod/cgroup.procs", "100\n");
  tree.make_file("cg/pod/sidecar/cgroup.procs", "200\n300\n");  // 300 has no /proc entry
  MigrationTarget pod;
  pod.container_id = "pod";
  pod.cgroup_dir = tree.path("cg/pod");
  pod.dest_nodes = {1};
  auto report = run({pod});
  EXPECT_EQ(report.bytes_moved(), 150 * kPage);
  EXPECT_EQ(report.vanished_pids, std::vector<int>{300});
  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(report.containers[0].processes.size(), 2u);
}

TEST_F(MigrationJob, ProcessExitingMidJobIsCountedAsVanishedNotAsAnError) {
  add_process(100, 1000);
  add_process(200, 100, 0, 0x40000000);
  memory.exit_after_moves = 1;
  auto report = run({target(100), target(200)});
  EXPECT_EQ(report.vanished_pids, std::vector<int>{100});
  EXPECT_TRUE(report.containers[0].processes[0].vanished);
  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(report.containers[1].bytes_moved(), 100 * kPage);
}

TEST_F(MigrationJob, ZombieAnsweringEinvalIsCountedAsVanished) {
  add_process(100, 1000);
  memory.zombie_after_moves = 1;
  auto report = run({target(100)});
  EXPECT_EQ(report.vanished_pids, std::vector<int>{100});
  EXPECT_TRUE(report.errors.empty());
  EXPECT_GT(report.bytes_moved(), 0);
}

TEST_F(MigrationJob, MissingCgroupIsAnErrorAndNothingToMove) {
  MigrationTarget gone;
  gone.container_id = "gone";
  gone.cgroup_dir = tree.path("cg/gone");
  gone.dest_nodes = {1};
  auto report = run({gone});
  EXPECT_EQ(report.stop_reason, StopReason::nothing_to_move);
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].container_id, "gone");
  EXPECT_FALSE(report.threshold_met);
}

TEST_F(MigrationJob, NothingOnTheSourceIsNothingToMove) {
  add_process(100, 100, 1);
  auto report = run({target(100, {2})});
  EXPECT_EQ(report.stop_reason, StopReason::nothing_to_move);
  EXPECT_EQ(memory.move_calls, 0);
  EXPECT_FALSE(report.threshold_met);
}

TEST_F(MigrationJob, DryRunMovesNothingAndSaysWhatWouldMove) {
  add_process(100, 1000);
  options.dry_run = true;
  options.budget = 2 * kMiB;
  auto report = run({target(100)});
  EXPECT_EQ(memory.move_calls, 0);
  EXPECT_EQ(memory.migrate_calls, 0);
  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_TRUE(report.dry_run);
  EXPECT_GE(report.bytes_on_source(), 2 * kMiB);
  EXPECT_TRUE(report.threshold_met);
  EXPECT_EQ(memory.bytes_on(100, 0), 1000 * kPage);
}

TEST_F(MigrationJob, TargetCapsLimitEachContainerAndTheGoal) {
  add_process(100, 1000);
  add_process(200, 1000, 0, 0x40000000);
  auto first = target(100);
  first.max_bytes = kMiB;
  auto second = target(200);
  second.max_bytes = 2 * kMiB;
  auto report = run({first, second});
  EXPECT_EQ(report.containers[0].bytes_moved(), kMiB);
  EXPECT_EQ(report.containers[1].bytes_moved(), 2 * kMiB);
  EXPECT_EQ(report.goal, 3 * kMiB);
  EXPECT_TRUE(report.threshold_met);
}

TEST_F(MigrationJob, PagesAlreadyOnADestinationAreCountedAsPlaced) {
  add_process(100, 100);
  auto report = run({target(100, {0})});  // a one-node host: source and destination agree
  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_EQ(report.outcomes().already_on_destination, 100);
  EXPECT_EQ(report.bytes_placed(), 100 * kPage);
  EXPECT_TRUE(report.threshold_met);
}

TEST_F(MigrationJob, PagesUnmappedBetweenQueryAndMoveAreCounted) {
  add_process(100, 10);
  memory.unmap_before_move = {kBase, kBase + 3 * kPage};
  auto report = run({target(100)});
  EXPECT_EQ(report.outcomes().unmapped, 2);
  EXPECT_EQ(report.outcomes().moved, 8);
}

// Outcomes are counted by runs of equal status within a batch; interleaved outcomes must still
// come out page for page.
TEST_F(MigrationJob, InterleavedOutcomesInOneBatchAreCountedPageForPage) {
  add_process(100, 200);
  for (std::int64_t i = 0; i < 200; i += 3) {
    memory.page(100, kBase + static_cast<std::uintptr_t>(i) * kPage).shared = true;
  }
  memory.unmap_before_move = {kBase + 10 * kPage, kBase + 11 * kPage};
  memory.page(100, kBase + 20 * kPage).busy_answers = 1;
  auto report = run({target(100)});
  EXPECT_EQ(report.outcomes().access_denied, 67);
  EXPECT_EQ(report.outcomes().unmapped, 2);
  EXPECT_EQ(report.outcomes().busy, 0);
  EXPECT_EQ(report.outcomes().moved, 131);
  EXPECT_EQ(report.bytes_moved(), 131 * kPage);
  EXPECT_EQ(memory.bytes_on(100, 1), 131 * kPage);
}

}  // namespace
}  // namespace nb::actuator
