#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>
#include <vector>

#include "actuator/damon_kdamonds.hpp"
#include "actuator/migration_job.hpp"
#include "tests/actuator/fake_damon_sysfs.hpp"
#include "tests/actuator/fake_memory.hpp"
#include "tests/support/temp_tree.hpp"

// A job in hot-first order: DAMON's hottest region moves first, and whatever goes wrong with
// DAMON the job still moves its budget, in address order, and says why.

namespace nb::actuator {
namespace {

using namespace std::chrono_literals;
using testing::FakeDamonSysfs;
using testing::FakeMemory;

constexpr int kPid = 100;
constexpr std::uintptr_t kBase = 0x10000000;
constexpr Bytes kPage = 4 * kKiB;
constexpr Bytes kMapping = 64 * kMiB;
constexpr std::uintptr_t kHotStart = kBase + 48 * kMiB;  // the last quarter is hot

// 64 MiB on node 0 whose last 16 MiB DAMON sees accessed; a budget of a quarter of it.
struct HotFirstBench {
  HotFirstBench() {
    memory.add_node(0, 16 * kGiB, 8 * kGiB);
    memory.add_node(1, 16 * kGiB, 8 * kGiB);
    memory.add_vma(kPid, kBase, kBase + kMapping);
    memory.add_pages(kPid, kBase, kMapping / kPage, 0);
    damon.regions[kPid] = {{kBase, kHotStart, 0, 40}, {kHotStart, kBase + kMapping, 19, 8}};
    options.source_node = 0;
    options.rate_limit_mib_per_s = 0;
    options.fast_path_max_bytes = 0;
    options.min_free_bytes = kGiB;
    options.budget = kMapping / 4;
    options.page_order = PageOrder::hot_first;
    options.hotness_window = 5s;
  }

  MigrationReport run() {
    MigrationTarget target;
    target.container_id = "pid " + std::to_string(kPid);
    target.pid = kPid;
    target.dest_nodes = {1};
    return run_migration({target}, options, memory, &damon, tree.path("proc"), cancel, {});
  }

  // Bytes of [start, end) now on node 1.
  Bytes moved_within(std::uintptr_t start, std::uintptr_t end) {
    Bytes moved = 0;
    for (std::uintptr_t address = start; address < end; address += kPage) {
      moved += memory.page(kPid, address).node == 1 ? kPage : 0;
    }
    return moved;
  }

  nb::testing::TempTree tree;
  FakeMemory memory{tree};
  FakeDamonSysfs damon;
  std::atomic<bool> cancel{false};
  JobOptions options;
};

TEST(HotFirstJob, ABudgetOfAQuarterMovesTheHotRegionAtTheEndOfTheMapping) {
  HotFirstBench bench;
  auto report = bench.run();
  EXPECT_EQ(report.bytes_moved(), 16 * kMiB);
  EXPECT_EQ(bench.moved_within(kHotStart, kBase + kMapping), 16 * kMiB);
  EXPECT_EQ(bench.moved_within(kBase, kHotStart), 0);
  EXPECT_EQ(report.page_order, PageOrder::hot_first);
  EXPECT_EQ(report.page_order_fallback, "");
  EXPECT_EQ(report.bytes_moved_accessed(), 16 * kMiB);
  EXPECT_EQ(report.bytes_moved_not_accessed(), 0);
  EXPECT_EQ(report.bytes_moved_in(PageOrder::hot_first), 16 * kMiB);
  EXPECT_GE(report.hotness_cost, 5s);
  EXPECT_GE(report.elapsed, report.hotness_cost) << "the job's wall time includes the window";
  EXPECT_EQ(bench.damon.nr_kdamonds(), 0u);
  EXPECT_TRUE(report.threshold_met);
}

TEST(HotFirstJob, AddressOrderMovesTheFrontAndNeverTouchesDamon) {
  HotFirstBench bench;
  bench.options.page_order = PageOrder::address;
  auto report = bench.run();
  EXPECT_EQ(bench.moved_within(kBase, kBase + 16 * kMiB), 16 * kMiB);
  EXPECT_EQ(bench.moved_within(kHotStart, kBase + kMapping), 0);
  EXPECT_EQ(report.page_order, PageOrder::address);
  EXPECT_EQ(report.page_order_fallback, "");
  EXPECT_EQ(report.hotness_cost, Clock::duration::zero());
  EXPECT_EQ(report.bytes_moved_in(PageOrder::address), 16 * kMiB);
  EXPECT_TRUE(bench.damon.writes().empty());
}

TEST(HotFirstJob, AutoIsHotFirstWhereDamonExistsAndAddressWhereItDoesNot) {
  HotFirstBench with;
  with.options.page_order = PageOrder::automatic;
  EXPECT_EQ(with.run().page_order, PageOrder::hot_first);
  HotFirstBench without;
  without.options.page_order = PageOrder::automatic;
  without.damon.remove_damon();
  auto report = without.run();
  EXPECT_EQ(report.page_order, PageOrder::address);
  EXPECT_NE(report.page_order_fallback.find("not available"), std::string::npos);
  EXPECT_EQ(report.bytes_moved(), 16 * kMiB);
}

TEST(HotFirstJob, AFailedDamonWriteFallsBackToAddressOrderAndStillMovesTheBudget) {
  std::size_t writes = 0;
  {
    HotFirstBench clean;
    clean.run();
    writes = clean.damon.writes().size();
  }
  ASSERT_GT(writes, 15u);
  for (std::size_t failing = 0; failing < writes; ++failing) {
    HotFirstBench bench;
    bench.damon.fail_writes[failing] = EIO;
    auto report = bench.run();
    const std::string written = bench.damon.writes()[failing];
    EXPECT_EQ(bench.damon.nr_kdamonds(), 0u) << written;
    EXPECT_FALSE(bench.damon.any_on()) << written;
    EXPECT_EQ(report.bytes_moved(), 16 * kMiB) << written;
    EXPECT_TRUE(report.errors.empty()) << written << ": " << report.errors.front().message;
    bool setting_up = written.find("update_schemes_tried_regions") == std::string::npos &&
                      written.find(" off") == std::string::npos &&
                      written != "kdamonds/nr_kdamonds 0";
    if (!setting_up) {
      continue;
    }
    EXPECT_EQ(report.page_order, PageOrder::address) << written;
    EXPECT_EQ(bench.moved_within(kBase, kBase + 16 * kMiB), 16 * kMiB) << written;
    std::string path = written.substr(0, written.find(' '));
    EXPECT_NE(report.page_order_fallback.find(path), std::string::npos)
        << report.page_order_fallback;
    EXPECT_NE(report.page_order_fallback.find("errno 5"), std::string::npos)
        << report.page_order_fallback;
  }
}

TEST(HotFirstJob, KdamondsThatCannotBeRemovedAreAnErrorAndStartUpRemovesThem) {
  HotFirstBench bench;
  bench.damon.after_write = [&bench](const std::string& path, std::string_view value) {
    if (path == "kdamonds/0/state" && value == "off") {
      std::size_t next = bench.damon.writes().size();
      for (std::size_t i = next; i < next + 3; ++i) {
        bench.damon.fail_writes[i] = EIO;  // every try of nr_kdamonds 0
      }
    }
  };
  auto report = bench.run();
  EXPECT_EQ(report.page_order, PageOrder::hot_first) << "the regions were read before";
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].code, EIO);
  EXPECT_NE(report.errors[0].message.find("nr_kdamonds"), std::string::npos);
  EXPECT_NE(report.errors[0].hint.find("next starts"), std::string::npos);
  ASSERT_EQ(bench.damon.nr_kdamonds(), 1u);
  bench.damon.after_write = nullptr;
  // The next start-up: this test's pid has no entry in the fake /proc, as a dead run's would not.
  auto cleanup = remove_stale_kdamonds(bench.damon, bench.tree.path("proc"), -1);
  ASSERT_TRUE(cleanup.ok());
  EXPECT_EQ(cleanup->removed, 1u);
  EXPECT_EQ(bench.damon.nr_kdamonds(), 0u);
}

TEST(HotFirstJob, AnotherToolsKdamondOnOrOffMeansAddressOrderAndStaysUntouched) {
  for (bool on : {true, false}) {
    HotFirstBench bench;
    bench.damon.add_foreign_kdamond(on, 4321);
    auto report = bench.run();
    EXPECT_EQ(report.page_order, PageOrder::address);
    EXPECT_NE(report.page_order_fallback.find("busy"), std::string::npos)
        << report.page_order_fallback;
    EXPECT_EQ(bench.moved_within(kBase, kBase + 16 * kMiB), 16 * kMiB);
    EXPECT_TRUE(bench.damon.writes().empty());
    EXPECT_EQ(bench.damon.value("kdamonds/0/state"), on ? "on" : "off");
    EXPECT_EQ(bench.damon.nr_kdamonds(), 1u);
  }
}

TEST(HotFirstJob, CancelDuringTheWindowEndsTheJobAndRemovesItsKdamonds) {
  HotFirstBench bench;
  bench.damon.after_write = [&bench](const std::string& path, std::string_view value) {
    if (path == "kdamonds/0/state" && value == "on") {
      bench.cancel.store(true);
    }
  };
  auto report = bench.run();
  EXPECT_EQ(report.stop_reason, StopReason::cancelled);
  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_EQ(report.page_order, PageOrder::address);
  EXPECT_NE(report.page_order_fallback.find("cancelled"), std::string::npos);
  EXPECT_EQ(bench.damon.nr_kdamonds(), 0u);
}

TEST(HotFirstJob, AReorderedSparseWalkMovesEveryPageOnceAndNoMore) {
  // Only the first and the last 4 MiB are resident; the last are hot. Unlimited budget.
  HotFirstBench bench;
  bench.options.budget = kUnlimitedBudget;
  const int pid = 200;
  bench.memory.add_vma(pid, kBase, kBase + kMapping);
  bench.memory.add_pages(pid, kBase, 4 * kMiB / kPage, 0);
  bench.memory.add_pages(pid, kBase + kMapping - 4 * kMiB, 4 * kMiB / kPage, 0);
  bench.damon.regions[pid] = {{kBase + kMapping - 8 * kMiB, kBase + kMapping, 7, 3}};
  MigrationTarget target;
  target.pid = pid;
  target.dest_nodes = {1};
  auto report = run_migration({target}, bench.options, bench.memory, &bench.damon,
                              bench.tree.path("proc"), bench.cancel, {});
  EXPECT_EQ(report.page_order, PageOrder::hot_first);
  EXPECT_EQ(report.bytes_moved(), 8 * kMiB);
  EXPECT_EQ(bench.memory.bytes_on(pid, 0), 0) << "no early stop before every page was found";
  std::multiset<std::uintptr_t> moved;
  std::uintptr_t first = 0;
  for (const auto& call : bench.memory.calls) {
    if (!call.query) {
      first = first == 0 ? call.pages.front() : first;
      moved.insert(call.pages.begin(), call.pages.end());
    }
  }
  EXPECT_EQ(moved.size(), std::set<std::uintptr_t>(moved.begin(), moved.end()).size())
      << "a page was asked to move twice";
  EXPECT_GE(first, kBase + kMapping - 4 * kMiB) << "the hot pages went first";
  for (std::size_t i = 0; i < bench.memory.resident_reads.size(); ++i) {
    for (std::size_t j = i + 1; j < bench.memory.resident_reads.size(); ++j) {
      auto [a_start, a_end] = bench.memory.resident_reads[i];
      auto [b_start, b_end] = bench.memory.resident_reads[j];
      EXPECT_TRUE(a_end <= b_start || b_end <= a_start) << "the page map was read twice";
    }
  }
  EXPECT_EQ(report.bytes_moved_accessed(), 4 * kMiB);
  EXPECT_EQ(report.bytes_moved_not_accessed(), 4 * kMiB);
}

TEST(HotFirstJob, AProcessTheFastPathMovesWholeIsNotWatched) {
  HotFirstBench bench;
  bench.options.fast_path_max_bytes = 128 * kMiB;
  bench.options.budget = kUnlimitedBudget;
  auto report = bench.run();
  EXPECT_TRUE(bench.damon.writes().empty());
  EXPECT_EQ(report.page_order, PageOrder::address);
  EXPECT_NE(report.page_order_fallback.find("fast path"), std::string::npos);
  EXPECT_EQ(report.bytes_moved(), kMapping);
}

TEST(HotFirstJob, AWindowOfMoreThanHalfTheDeadlineIsNotSpent) {
  HotFirstBench bench;
  bench.options.deadline = 8s;
  auto report = bench.run();
  EXPECT_TRUE(bench.damon.writes().empty());
  EXPECT_EQ(report.page_order, PageOrder::address);
  EXPECT_EQ(report.page_order_fallback,
            "the hotness window (5s) would take more than half of the job's deadline (8s)");
  EXPECT_EQ(report.bytes_moved(), 16 * kMiB);
}

TEST(HotFirstJob, ADryRunNeverStartsDamon) {
  HotFirstBench bench;
  bench.options.dry_run = true;
  auto report = bench.run();
  EXPECT_TRUE(bench.damon.writes().empty());
  EXPECT_EQ(report.page_order, PageOrder::address);
  EXPECT_NE(report.page_order_fallback.find("dry run"), std::string::npos);
}

}  // namespace
}  // namespace nb::actuator
