#include "actuator/damon_monitor.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "actuator/damon_kdamonds.hpp"
#include "tests/actuator/fake_damon_sysfs.hpp"
#include "tests/actuator/fake_memory.hpp"
#include "tests/support/temp_tree.hpp"

// A DAMON run against the fake sysfs: what it writes, what it reads, and that its kdamonds are
// gone on every way out.

namespace nb::actuator {
namespace {

using namespace std::chrono_literals;
using testing::FakeDamonSysfs;
using testing::FakeMemory;

constexpr int kOwnPid = 777;
constexpr std::uintptr_t kStart = 0x10000000;

class DamonMonitorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    damon.regions[41] = {{kStart, kStart + 96 * kMiB, 0, 30},
                         {kStart + 96 * kMiB, kStart + 128 * kMiB, 19, 12}};
    damon.regions[42] = {{kStart, kStart + 8 * kMiB, 5, 3}};
  }

  DamonWatch watch(const std::vector<int>& pids, Duration window = 5s) {
    DamonMonitor monitor(damon, memory, tree.path("proc"), kOwnPid);
    return monitor.watch(pids, window, cancel);
  }

  nb::testing::TempTree tree;
  FakeMemory memory{tree};
  FakeDamonSysfs damon;
  std::atomic<bool> cancel{false};
};

TEST_F(DamonMonitorTest, OneProcessIsWatchedWithTheKernelsSequenceOfWrites) {
  auto result = watch({41});
  const std::string ctx = "kdamonds/0/contexts/0/";
  const std::string scheme = ctx + "schemes/0/";
  const std::vector<std::string> expected = {
      "kdamonds/nr_kdamonds 1",
      "kdamonds/0/contexts/nr_contexts 1",
      ctx + "operations vaddr",
      ctx + "monitoring_attrs/intervals/sample_us 12500",
      ctx + "monitoring_attrs/intervals/aggr_us 250000",
      ctx + "monitoring_attrs/intervals/update_us 1000000",
      ctx + "monitoring_attrs/nr_regions/min 10",
      ctx + "monitoring_attrs/nr_regions/max 1000",
      ctx + "targets/nr_targets 1",
      ctx + "targets/0/pid_target 41",
      ctx + "schemes/nr_schemes 1",
      scheme + "quotas/reset_interval_ms 4242000000777",
      scheme + "action stat",
      scheme + "access_pattern/sz/max 18446744073709551615",
      scheme + "access_pattern/nr_accesses/max 4294967295",
      scheme + "access_pattern/age/max 4294967295",
      "kdamonds/0/state on",
      "kdamonds/0/state update_schemes_tried_regions",
      "kdamonds/0/state off",
      "kdamonds/nr_kdamonds 0",
  };
  EXPECT_EQ(damon.writes(), expected);
  EXPECT_FALSE(result.failure.has_value());
  ASSERT_EQ(result.regions.count(41), 1u);
  ASSERT_EQ(result.regions[41].size(), 2u);
  EXPECT_EQ(result.regions[41][1].start, kStart + 96 * kMiB);
  EXPECT_EQ(result.regions[41][1].end, kStart + 128 * kMiB);
  EXPECT_EQ(result.regions[41][1].nr_accesses, 19u);
  EXPECT_EQ(result.regions[41][1].age, 12u);
  EXPECT_EQ(damon.nr_kdamonds(), 0u);
  EXPECT_GE(result.cost, 5s) << "the window is waited on the job's clock";
  EXPECT_LT(result.cost, 6s);
}

TEST_F(DamonMonitorTest, EachProcessGetsItsOwnKdamondAndItsOwnRegions) {
  auto result = watch({41, 42});
  EXPECT_EQ(damon.writes().front(), "kdamonds/nr_kdamonds 2");
  ASSERT_EQ(result.regions.size(), 2u);
  EXPECT_EQ(result.regions[41].size(), 2u);
  ASSERT_EQ(result.regions[42].size(), 1u);
  EXPECT_EQ(result.regions[42][0].nr_accesses, 5u);
  EXPECT_EQ(damon.nr_kdamonds(), 0u);
}

TEST_F(DamonMonitorTest, AtMostSixteenProcessesAreWatchedAtOnce) {
  std::vector<int> pids;
  for (int pid = 100; pid < 120; ++pid) {
    pids.push_back(pid);
  }
  auto result = watch(pids);
  EXPECT_EQ(damon.writes().front(), "kdamonds/nr_kdamonds 16");
  EXPECT_EQ(result.regions.size(), 16u);
  EXPECT_EQ(result.regions.count(115), 1u);
  EXPECT_EQ(result.regions.count(116), 0u);
}

TEST_F(DamonMonitorTest, IntervalsGiveTheWindowTwentyAggregations) {
  for (Duration window : {Duration(100ms), Duration(5s), Duration(60s)}) {
    auto intervals = damon_intervals(window);
    EXPECT_GE(std::chrono::microseconds(window) / intervals.aggregation, 20) << window.count();
    EXPECT_LE(intervals.sample, intervals.aggregation);
    EXPECT_GE(intervals.sample, 1ms);
  }
  EXPECT_EQ(damon_intervals(100ms).aggregation, 5ms);
  EXPECT_EQ(damon_intervals(100ms).sample, 1ms);
}

TEST_F(DamonMonitorTest, AFailedWriteAnywhereLeavesNoKdamondBehind) {
  watch({41, 42});
  const std::size_t writes = damon.writes().size();
  ASSERT_GT(writes, 30u);
  for (std::size_t failing = 0; failing < writes; ++failing) {
    FakeDamonSysfs failing_damon;
    failing_damon.regions = damon.regions;
    failing_damon.fail_writes[failing] = EINVAL;
    DamonMonitor monitor(failing_damon, memory, tree.path("proc"), kOwnPid);
    auto result = monitor.watch({41, 42}, 5s, cancel);
    const std::string written = failing_damon.writes()[failing];
    EXPECT_EQ(failing_damon.nr_kdamonds(), 0u) << "write " << failing << ": " << written;
    EXPECT_FALSE(failing_damon.any_on()) << written;
    EXPECT_FALSE(result.cleanup_failure.has_value()) << written << " is tried again";
    bool before_collecting = written.find("update_schemes_tried_regions") == std::string::npos &&
                             written.find(" off") == std::string::npos &&
                             written != "kdamonds/nr_kdamonds 0";
    if (before_collecting) {
      EXPECT_TRUE(result.regions.empty()) << written;
      ASSERT_TRUE(result.failure.has_value()) << written;
      EXPECT_EQ(result.failure->code, EINVAL);
      std::string path = written.substr(0, written.find(' '));
      EXPECT_NE(result.failure->message().find(path), std::string::npos)
          << result.failure->message();
    }
  }
}

TEST_F(DamonMonitorTest, AProcessThatExitsDuringTheWindowLosesOnlyItsOwnRegions) {
  damon.after_write = [this](const std::string& path, std::string_view value) {
    if (path == "kdamonds/1/state" && value == "on") {
      damon.stop_kdamond(0);  // its process exited: the kdamond stops by itself
    }
  };
  auto result = watch({41, 42});
  EXPECT_EQ(result.regions.count(41), 0u);
  EXPECT_EQ(result.regions.count(42), 1u);
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_NE(result.failure->message().find("process 41"), std::string::npos);
  EXPECT_EQ(damon.nr_kdamonds(), 0u);
  EXPECT_FALSE(result.cleanup_failure.has_value()) << result.cleanup_failure->message();
}

TEST_F(DamonMonitorTest, CancelDuringTheWindowEndsTheRunAndRemovesItsKdamonds) {
  damon.after_write = [this](const std::string& path, std::string_view value) {
    if (path == "kdamonds/0/state" && value == "on") {
      cancel.store(true);
    }
  };
  auto result = watch({41}, 60s);
  EXPECT_TRUE(result.cancelled);
  EXPECT_TRUE(result.regions.empty());
  EXPECT_EQ(damon.nr_kdamonds(), 0u);
  EXPECT_FALSE(damon.any_on());
  EXPECT_LT(result.cost, 1s) << "cancel does not wait the window out";
}

TEST_F(DamonMonitorTest, AnotherToolsKdamondMakesDamonBusyAndIsNeverWritten) {
  for (bool on : {true, false}) {
    FakeDamonSysfs busy;
    busy.add_foreign_kdamond(on, 4321);
    DamonMonitor monitor(busy, memory, tree.path("proc"), kOwnPid);
    auto result = monitor.watch({41}, 5s, cancel);
    EXPECT_TRUE(busy.writes().empty()) << "on=" << on;
    EXPECT_EQ(busy.nr_kdamonds(), 1u);
    EXPECT_EQ(busy.value("kdamonds/0/state"), on ? "on" : "off");
    EXPECT_EQ(busy.value("kdamonds/0/contexts/0/targets/0/pid_target"), "4321");
    ASSERT_TRUE(result.failure.has_value());
    EXPECT_NE(result.failure->message().find("busy"), std::string::npos);
    EXPECT_EQ(result.cost, Clock::duration::zero()) << "no window without DAMON";
  }
}

TEST_F(DamonMonitorTest, ADeadRunsKdamondsAreRemovedBeforeOursAreMade) {
  damon.add_marked_kdamonds(2, 999, true);  // pid 999 has no /proc entry: it is gone
  auto result = watch({41});
  EXPECT_EQ(result.regions.count(41), 1u);
  ASSERT_GE(damon.writes().size(), 4u);
  EXPECT_EQ(damon.writes()[0], "kdamonds/0/state off");
  EXPECT_EQ(damon.writes()[1], "kdamonds/1/state off");
  EXPECT_EQ(damon.writes()[2], "kdamonds/nr_kdamonds 0");
  EXPECT_EQ(damon.writes()[3], "kdamonds/nr_kdamonds 1");
}

TEST_F(DamonMonitorTest, ALiveRunsKdamondsMakeDamonBusy) {
  tree.make_dir("proc/999");
  damon.add_marked_kdamonds(1, 999, true);
  auto result = watch({41});
  EXPECT_TRUE(damon.writes().empty());
  EXPECT_TRUE(damon.any_on());
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_NE(result.failure->message().find("999"), std::string::npos);
}

TEST_F(DamonMonitorTest, WithoutDamonNothingIsWrittenAndTheReasonSaysSo) {
  damon.remove_damon();
  auto result = watch({41});
  EXPECT_TRUE(damon.writes().empty());
  ASSERT_TRUE(result.failure.has_value());
  EXPECT_NE(result.failure->message().find("not available"), std::string::npos);
}

}  // namespace
}  // namespace nb::actuator
