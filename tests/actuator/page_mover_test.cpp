#include "actuator/page_mover.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "tests/actuator/job_fixture.hpp"

// The mover inside a job: batch sizes, per-page outcomes, retries and call failures.

namespace nb::actuator {
namespace {

using testing::InjectedFailure;
using testing::kBase;
using testing::kPage;

class JobMover : public testing::JobFixture {};

TEST_F(JobMover, HugePagesMoveByHeadAddressAndOvershootByAtMostOneHugePage) {
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

TEST_F(JobMover, HugePageCallsGrowPastFourThousandBasePagesTowardTheCallTarget) {
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

TEST_F(JobMover, BatchSizeAdaptsSoEachCallTakesAboutTheCallTarget) {
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

TEST_F(JobMover, BatchSizeStaysWithin64And4096Pages) {
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

TEST_F(JobMover, BusyPageIsRetriedOnce) {
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

TEST_F(JobMover, PositiveReturnIsCheckedAgainstWherePagesReallyAre) {
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

TEST_F(JobMover, HugePageBusyQuirkCountsTheWholeHugePageAsMoved) {
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

TEST_F(JobMover, MoveEpermIsReportedWithCapabilityHint) {
  add_process(100, 16);
  memory.move_failures.push_back(InjectedFailure{EPERM, 0});
  auto report = run({target(100)});
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].pid, 100);
  EXPECT_NE(report.errors[0].hint.find("CAP_SYS_PTRACE"), std::string::npos);
  EXPECT_FALSE(report.threshold_met);
}

TEST_F(JobMover, CpusetRefusalExcludesTheNodeForThatProcessOnly) {
  memory.move_failures.push_back(InjectedFailure{EACCES, 0});
  add_process(100, 100);
  auto report = run({target(100, {1, 2})});
  EXPECT_EQ(report.bytes_moved_to().at(2), 100 * kPage);
  EXPECT_EQ(report.bytes_moved_to().count(1), 0u);
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_NE(report.errors[0].message.find("cpuset"), std::string::npos);
  EXPECT_TRUE(report.dropped_destinations.empty());
}

TEST_F(JobMover, CallFailingMidwayKeepsWhatItMovedAndRetriesTheRest) {
  memory.move_failures.push_back(InjectedFailure{ENOMEM, 30});
  add_process(100, 64);
  auto report = run({target(100, {1, 2})});
  EXPECT_EQ(report.bytes_moved_to().at(1), 30 * kPage);
  EXPECT_EQ(report.bytes_moved_to().at(2), 34 * kPage);
}

TEST_F(JobMover, SharedPagesAnswerEaccesUnlessMoveShared) {
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

TEST_F(JobMover, OtherCallErrorsStopTheProcessWithAnError) {
  memory.move_failures.push_back(InjectedFailure{EINVAL, 0});
  add_process(100, 10);
  auto report = run({target(100)});
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].code, EINVAL);
  EXPECT_EQ(report.bytes_moved(), 0);
}

TEST_F(JobMover, PagesAlreadyOnADestinationAreCountedAsPlaced) {
  add_process(100, 100);
  auto report = run({target(100, {0})});  // a one-node host: source and destination agree
  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_EQ(report.outcomes().already_on_destination, 100);
  EXPECT_EQ(report.bytes_placed(), 100 * kPage);
  EXPECT_TRUE(report.threshold_met);
}

TEST_F(JobMover, PagesUnmappedBetweenQueryAndMoveAreCounted) {
  add_process(100, 10);
  memory.unmap_before_move = {kBase, kBase + 3 * kPage};
  auto report = run({target(100)});
  EXPECT_EQ(report.outcomes().unmapped, 2);
  EXPECT_EQ(report.outcomes().moved, 8);
}

// Outcomes are counted by runs of equal status within a batch; interleaved outcomes must still
// come out page for page.
TEST_F(JobMover, InterleavedOutcomesInOneBatchAreCountedPageForPage) {
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

// The mover on its own: pages queued by hand, one target, its own picker, pacer and ledger.
class Mover : public testing::JobFixture {
 protected:
  void SetUp() override {
    JobFixture::SetUp();
    add_process(100, 1000);
    process.start(pin(100));
    plan_for({1});
  }

  void plan_for(std::vector<NodeId> dests) {
    target_ = target(100, std::move(dests));
    plan.target = &target_;
  }

  bool move(bool flush) {
    DestinationPicker picker(target_.dest_nodes, options.min_free_bytes);
    JobPacer pacer(options, memory, cancel, ledger, memory.now());
    PageMover mover(options, memory, tree.path("proc"), picker, pacer, ledger,
                    [this] { ++batches; });
    mover.refresh_destinations(true);
    bool more = mover.move_pending(plan, process, report, flush);
    stop = pacer.stop_reason();
    return more;
  }

  MigrationTarget target_;
  TargetPlan plan;
  JobLedger ledger{kUnlimitedBudget};
  ProcessMove process;
  ProcessReport report;
  int batches = 0;
  std::optional<StopReason> stop;
};

TEST_F(Mover, LessThanABatchWaitsUnlessFlushed) {
  process.pending.push_run(kBase, 10, kPage, 1);
  EXPECT_TRUE(move(false));
  EXPECT_EQ(memory.move_calls, 0);
  EXPECT_EQ(process.pending.size(), 10u);

  EXPECT_TRUE(move(true));
  EXPECT_EQ(memory.move_calls, 1);
  EXPECT_TRUE(process.pending.empty());
  EXPECT_EQ(report.bytes_moved_to.at(1), 10 * kPage);
  EXPECT_EQ(ledger.moved(), 10 * kPage);
  EXPECT_EQ(batches, 1);
}

TEST_F(Mover, AFullQueueGoesInBatchesFromTheMinimumUp) {
  process.pending.push_run(kBase, 1000, kPage, 1);
  EXPECT_TRUE(move(true));
  EXPECT_EQ(move_call_sizes().front(), 64u);
  EXPECT_EQ(report.outcomes.moved, 1000);
  EXPECT_EQ(memory.bytes_on(100, 1), 1000 * kPage);
}

TEST_F(Mover, TheTargetsCapStopsTheMover) {
  plan.cap = 100 * kPage;
  process.pending.push_run(kBase, 1000, kPage, 1);
  EXPECT_FALSE(move(true));
  EXPECT_EQ(ledger.moved(), 100 * kPage);
  EXPECT_TRUE(process.pending.empty());
}

TEST_F(Mover, NoDestinationLeftEndsTheProcessAndTheJob) {
  plan_for({7});  // no such node: the first read drops it
  process.pending.push_run(kBase, 10, kPage, 1);
  EXPECT_FALSE(move(true));
  EXPECT_TRUE(process.done);
  EXPECT_TRUE(process.pending.empty());
  EXPECT_EQ(stop, StopReason::no_destination);
  EXPECT_EQ(memory.move_calls, 0);
}

TEST_F(Mover, ADryRunMovesNothingYetSpendsTheBudget) {
  options.dry_run = true;
  plan.cap = 100 * kPage;
  process.pending.push_run(kBase, 60, kPage, 1);
  EXPECT_TRUE(move(true));
  EXPECT_EQ(memory.move_calls, 0);
  EXPECT_EQ(ledger.placed(), 60 * kPage);
  process.pending.push_run(kBase + 60 * kPage, 60, kPage, 1);
  EXPECT_FALSE(move(true));
  EXPECT_EQ(ledger.placed(), 120 * kPage);
  EXPECT_EQ(ledger.moved(), 0);
}

}  // namespace
}  // namespace nb::actuator
