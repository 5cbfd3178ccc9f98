// A job moves only the processes it was asked to: each is pinned when its pid is read, and a
// pid that comes to name another process, or a process that leaves its target's cgroup, is
// reported vanished and never touched again (#18).

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "actuator/job_plan.hpp"
#include "actuator/pinned_process.hpp"
#include "tests/actuator/job_fixture.hpp"

namespace nb::actuator {
namespace {

using testing::kPage;

// How a pid stops naming the process the plan read.
struct Swap {
  const char* name;
  void (*apply)(testing::FakeMemory& memory, int pid);
};

const Swap kSwaps[] = {
    {"PidReused", [](testing::FakeMemory& m, int pid) { m.reuse_pid(pid); }},
    {"StartTimeDiffers", [](testing::FakeMemory& m, int pid) { m.set_start_time(pid, 99); }},
    {"MovedToAnotherCgroup",
     [](testing::FakeMemory& m, int pid) { m.set_cgroup(pid, "0::/elsewhere\n"); }},
    {"ExitedNotYetReaped", [](testing::FakeMemory& m, int pid) { m.make_zombie(pid); }},
};

// The v2 container "pod" holding processes 100 and 200 (in a child cgroup), 100 pages each.
class PodJob : public testing::JobFixture {
 protected:
  void SetUp() override {
    JobFixture::SetUp();
    tree.make_file("cg/cgroup.procs", "");
    tree.make_file("cg/cgroup.controllers", "memory");
    tree.make_file("cg/pod/cgroup.controllers", "memory");
    tree.make_file("cg/pod/cgroup.procs", "100\n");
    tree.make_file("cg/pod/worker/cgroup.procs", "200\n");
    add_process(100, 100);
    add_process(200, 100, 0, 0x40000000);
    memory.set_cgroup(100, "0::/pod\n");
    memory.set_cgroup(200, "0::/pod/worker\n");
  }

  MigrationTarget pod() {
    MigrationTarget t;
    t.container_id = "pod";
    t.cgroup_dir = tree.path("cg/pod");
    t.dest_nodes = {1};
    return t;
  }

  // Whether a page call (move, query, migrate, page map) named pid from call `from` on.
  bool touched(int pid, std::size_t from = 0) const {
    return std::find(memory.touched_pids.begin() + static_cast<std::ptrdiff_t>(from),
                     memory.touched_pids.end(), pid) != memory.touched_pids.end();
  }

  static const ProcessReport& process_report(const MigrationReport& report, int pid) {
    for (const auto& process : report.containers.at(0).processes) {
      if (process.pid == pid) {
        return process;
      }
    }
    static const ProcessReport none;
    ADD_FAILURE() << "no report for process " << pid;
    return none;
  }
};

class PidSwap : public PodJob, public ::testing::WithParamInterface<std::tuple<int, bool>> {};

TEST_P(PidSwap, AProcessSwappedBetweenPlanAndItsFirstMoveIsNeverTouched) {
  const Swap& swap = kSwaps[std::get<0>(GetParam())];
  options.fast_path_max_bytes = std::get<1>(GetParam()) ? 16 * kMiB : 0;
  // 200 was planned with 100; it changes while the job works on 100.
  memory.after_call = [&](int pid) {
    if (pid == 100) {
      swap.apply(memory, 200);
      memory.after_call = nullptr;
    }
  };
  auto report = run({pod()});
  EXPECT_FALSE(touched(200));
  EXPECT_EQ(report.vanished_pids, std::vector<int>{200});
  EXPECT_TRUE(process_report(report, 200).vanished);
  EXPECT_EQ(process_report(report, 200).bytes_moved(), 0);
  EXPECT_EQ(report.bytes_moved(), 100 * kPage);
  EXPECT_EQ(memory.bytes_on(100, 1), 100 * kPage);
  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(memory.open_pidfds(), 0u);
  EXPECT_EQ(memory.bad_pidfd_closes, 0);
}

TEST_P(PidSwap, AProcessSwappedAfterACallCountsNothingOfItAndIsNotTouchedAgain) {
  const Swap& swap = kSwaps[std::get<0>(GetParam())];
  options.fast_path_max_bytes = std::get<1>(GetParam()) ? 16 * kMiB : 0;
  std::size_t swapped_at = 0;
  memory.after_call = [&](int pid) {
    if (pid == 100 && (memory.move_calls > 0 || memory.migrate_calls > 0)) {
      swap.apply(memory, 100);
      swapped_at = memory.touched_pids.size();
      memory.after_call = nullptr;
    }
  };
  auto report = run({pod()});
  ASSERT_GT(swapped_at, 0u);
  EXPECT_FALSE(touched(100, swapped_at));
  EXPECT_TRUE(process_report(report, 100).vanished);
  EXPECT_EQ(process_report(report, 100).bytes_moved(), 0);
  EXPECT_EQ(report.vanished_pids, std::vector<int>{100});
  EXPECT_EQ(process_report(report, 200).bytes_moved(), 100 * kPage);
  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(memory.open_pidfds(), 0u);
}

INSTANTIATE_TEST_SUITE_P(EverySwap, PidSwap,
                         ::testing::Combine(::testing::Range(0, 4), ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<int, bool>>& info) {
                           return std::string(kSwaps[std::get<0>(info.param)].name) +
                                  (std::get<1>(info.param) ? "FastPath" : "PageByPage");
                         });

TEST_F(PodJob, AListedPidWhoseProcessIsInAnotherCgroupIsVanishedAndNeverTouched) {
  memory.set_cgroup(200, "0::/pods-b\n");
  auto report = run({pod()});
  EXPECT_FALSE(touched(200));
  EXPECT_EQ(report.vanished_pids, std::vector<int>{200});
  EXPECT_EQ(report.bytes_moved(), 100 * kPage);
  EXPECT_EQ(memory.bytes_on(200, 0), 100 * kPage);
}

TEST_F(PodJob, AProcessWithoutTheHierarchysLineIsAnErrorAndNotTouched) {
  memory.set_cgroup(200, "4:memory:/pod\n");  // no v2 line for a v2 container
  auto report = run({pod()});
  EXPECT_FALSE(touched(200));
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].pid, 200);
  EXPECT_EQ(report.errors[0].code, ENODATA);
}

TEST_F(PodJob, AV1ContainerIsCheckedAgainstTheMemoryControllersLine) {
  tree.remove("cg/cgroup.controllers");
  tree.remove("cg/pod/cgroup.controllers");
  memory.set_cgroup(100, "7:cpuset:/x\n4:memory:/pod\n0::/system.slice\n");
  memory.set_cgroup(200, "7:cpuset:/pod\n4:memory:/other\n0::/pod\n");
  auto report = run({pod()});
  EXPECT_EQ(report.bytes_moved(), 100 * kPage);
  EXPECT_FALSE(touched(200));
  EXPECT_EQ(report.vanished_pids, std::vector<int>{200});
}

TEST_F(PodJob, ASingleProcessTargetIsTheOperatorsPickWhateverItsCgroup) {
  memory.set_cgroup(200, "");
  auto report = run({target(200)});
  EXPECT_EQ(report.bytes_moved(), 100 * kPage);
}

TEST_F(PodJob, APinIsCheckedUntilItFailsAndThenStaysFailed) {
  auto& pinned = pin(100);
  EXPECT_TRUE(pinned.still_same());
  EXPECT_EQ(memory.open_pidfds(), 1u);
  memory.set_start_time(100, 1);
  EXPECT_FALSE(pinned.still_same());
  memory.set_start_time(100, 4242);
  EXPECT_FALSE(pinned.still_same());
  pinned.release();
  EXPECT_EQ(memory.open_pidfds(), 0u);
}

// Out of descriptors when the plan reads the cgroup, the start time still tells: the pidfd is
// opened when the job comes to the process.
TEST_F(PodJob, WithoutDescriptorsThePlanPinsByStartTimeAndOpensThePidfdLater) {
  memory.pidfd_failure = EMFILE;
  std::vector<MigrationTarget> targets{pod()};
  auto plan = plan_job(targets, 0, memory, tree.path("proc"));
  ASSERT_EQ(plan.targets.at(0).processes.size(), 2u);
  EXPECT_EQ(memory.open_pidfds(), 0u);
  memory.pidfd_failure.reset();
  memory.reuse_pid(200);
  EXPECT_TRUE(plan.targets[0].processes[0].pinned.still_same());
  EXPECT_EQ(memory.open_pidfds(), 1u);
  EXPECT_FALSE(plan.targets[0].processes[1].pinned.still_same());
}

TEST_F(PodJob, PidfdsAreClosedWhenAJobEndsEarly) {
  options.budget = 10 * kPage;
  auto report = run({pod()});
  EXPECT_EQ(report.stop_reason, StopReason::budget_met);
  EXPECT_EQ(memory.open_pidfds(), 0u);
  EXPECT_EQ(memory.bad_pidfd_closes, 0);
}

}  // namespace
}  // namespace nb::actuator
