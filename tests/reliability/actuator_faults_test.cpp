// The migration engine under errno storms and a host that changes while it walks. The unit
// suite covers each errno once; here every page, every destination or every process fails, and
// the job must still end, move nothing it should not, and say what happened.

#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "actuator/migration_job.hpp"
#include "tests/actuator/fake_memory.hpp"
#include "tests/reliability/hooked_memory.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::reliability {
namespace {

using actuator::MigrationReport;
using actuator::MigrationTarget;
using actuator::StopReason;
using actuator::testing::FakeMemory;
using actuator::testing::InjectedFailure;

constexpr std::uintptr_t kBase = 0x10000000;
constexpr Bytes kPage = 4 * kKiB;

std::uintptr_t vma_start(int pid) {
  return kBase + static_cast<std::uintptr_t>(pid) * 0x1000000;
}

class ActuatorFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    for (NodeId node : {0, 1, 2, 3}) {
      memory.add_node(node, 16 * kGiB, 8 * kGiB);
    }
    options.source_node = 0;
    options.rate_limit_mib_per_s = 0;
    options.fast_path_max_bytes = 0;
    options.min_free_bytes = kGiB;
  }

  void add_process(int pid, std::int64_t pages, NodeId node = 0) {
    memory.add_vma(pid, vma_start(pid),
                   vma_start(pid) + static_cast<std::uintptr_t>(pages * kPage));
    memory.add_pages(pid, vma_start(pid), pages, node);
  }

  MigrationTarget pid_target(int pid, std::vector<NodeId> dests = {1}) {
    MigrationTarget target;
    target.container_id = "pid-" + std::to_string(pid);
    target.pid = pid;
    target.dest_nodes = std::move(dests);
    return target;
  }

  MigrationTarget cgroup_target(const std::string& id, std::vector<NodeId> dests = {1}) {
    MigrationTarget target;
    target.container_id = id;
    target.cgroup_dir = tree.path("cg/" + id);
    target.dest_nodes = std::move(dests);
    return target;
  }

  MigrationReport run(const std::vector<MigrationTarget>& targets) {
    return actuator::run_migration(targets, options, hooked, tree.path("proc"), cancel,
                                   [](const actuator::JobProgress&) {});
  }

  std::size_t pages_sent_to_move() const {
    std::size_t pages = 0;
    for (const auto& call : memory.calls) {
      pages += call.query ? 0 : call.pages.size();
    }
    return pages;
  }

  int move_requests() const {
    int requests = 0;
    for (const auto& call : memory.calls) {
      requests += call.query ? 0 : 1;
    }
    return requests;
  }

  nb::testing::TempTree tree;
  FakeMemory memory{tree};
  HookedMemory hooked{memory};
  std::atomic<bool> cancel{false};
  actuator::JobOptions options;
};

TEST_F(ActuatorFaults, EbusyStormOnEveryPageEndsWithEachPageTriedTwiceAtMost) {
  constexpr std::int64_t kPages = 20000;
  add_process(100, kPages);
  for (std::int64_t i = 0; i < kPages; ++i) {
    memory.page(100, vma_start(100) + static_cast<std::uintptr_t>(i * kPage)).busy_answers =
        1'000'000;
  }

  auto report = run({pid_target(100)});

  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_EQ(report.outcomes().busy, kPages);
  EXPECT_FALSE(report.threshold_met);
  EXPECT_TRUE(report.errors.empty());
  EXPECT_LE(pages_sent_to_move(), static_cast<std::size_t>(2 * kPages));
  EXPECT_EQ(memory.bytes_on(100, 0), kPages * kPage);
}

TEST_F(ActuatorFaults, EbusyOnEveryOtherPageMovesTheRestAndCountsTheBusyOnes) {
  constexpr std::int64_t kPages = 4000;
  add_process(100, kPages);
  for (std::int64_t i = 0; i < kPages; i += 2) {
    memory.page(100, vma_start(100) + static_cast<std::uintptr_t>(i * kPage)).busy_answers =
        1'000'000;
  }

  auto report = run({pid_target(100)});

  EXPECT_EQ(report.bytes_moved(), kPages / 2 * kPage);
  EXPECT_EQ(report.outcomes().busy, kPages / 2);
  EXPECT_EQ(memory.bytes_on(100, 1), kPages / 2 * kPage);
}

TEST_F(ActuatorFaults, CallLevelEbusyStormStopsEachProcessWithAnErrorAndTheJobEnds) {
  for (int pid = 100; pid < 110; ++pid) {
    add_process(pid, 500);
  }
  for (int i = 0; i < 1000; ++i) {
    memory.move_failures.push_back(InjectedFailure{EBUSY, 0});
  }
  std::vector<MigrationTarget> targets;
  for (int pid = 100; pid < 110; ++pid) {
    targets.push_back(pid_target(pid));
  }

  auto report = run(targets);

  EXPECT_EQ(report.bytes_moved(), 0);
  ASSERT_EQ(report.errors.size(), 10u);
  for (const auto& error : report.errors) {
    EXPECT_EQ(error.code, EBUSY);
  }
  EXPECT_EQ(move_requests(), 10);
}

TEST_F(ActuatorFaults, EnomemOnEveryDestinationDropsThemAllAndMovesNothing) {
  memory.enomem_nodes = {1, 2, 3};
  add_process(100, 3000);
  add_process(200, 3000);

  auto report = run({pid_target(100, {1, 2, 3}), pid_target(200, {1, 2, 3})});

  EXPECT_EQ(report.stop_reason, StopReason::no_destination);
  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_EQ(report.dropped_destinations.size(), 3u);
  EXPECT_FALSE(report.threshold_met);
  EXPECT_EQ(memory.bytes_on(100, 0), 3000 * kPage);
  EXPECT_EQ(memory.bytes_on(200, 0), 3000 * kPage);
  // One refused request per destination is enough to give up on it.
  EXPECT_LE(move_requests(), 3);
}

TEST_F(ActuatorFaults, CallLevelEnomemFromEveryDestinationEndsTheJob) {
  add_process(100, 1000);
  for (int i = 0; i < 100; ++i) {
    memory.move_failures.push_back(InjectedFailure{ENOMEM, 0});
  }

  auto report = run({pid_target(100, {1, 2, 3})});

  EXPECT_EQ(report.stop_reason, StopReason::no_destination);
  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_EQ(report.dropped_destinations.size(), 3u);
  EXPECT_EQ(move_requests(), 3);
}

TEST_F(ActuatorFaults, EpermForEveryProcessOfACgroupIsReportedPerProcessWithTheHint) {
  std::string procs;
  for (int pid = 100; pid < 120; ++pid) {
    add_process(pid, 200);
    procs += std::to_string(pid) + "\n";
  }
  tree.make_file("cg/pod/cgroup.procs", procs);
  for (int i = 0; i < 1000; ++i) {
    memory.move_failures.push_back(InjectedFailure{EPERM, 0});
  }

  auto report = run({cgroup_target("pod")});

  EXPECT_EQ(report.bytes_moved(), 0);
  ASSERT_EQ(report.errors.size(), 20u);
  for (const auto& error : report.errors) {
    EXPECT_EQ(error.code, EPERM);
    EXPECT_FALSE(error.hint.empty());
  }
  EXPECT_FALSE(report.threshold_met);
}

TEST_F(ActuatorFaults, ProcessForkedDuringTheWalkIsLeftForTheNextJobWithoutError) {
  add_process(100, 1000);
  tree.make_file("cg/pod/cgroup.procs", "100\n");
  bool forked = false;
  hooked.before_move = [&](int, bool query) {
    if (!forked && !query) {
      forked = true;
      add_process(101, 400);
      tree.make_file("cg/pod/cgroup.procs", "100\n101\n");
    }
  };

  auto first = run({cgroup_target("pod")});
  EXPECT_TRUE(first.errors.empty());
  EXPECT_EQ(memory.bytes_on(100, 0), 0);

  auto second = run({cgroup_target("pod")});
  EXPECT_TRUE(second.errors.empty());
  EXPECT_EQ(memory.bytes_on(100, 0) + memory.bytes_on(101, 0), 0);
  EXPECT_EQ(first.bytes_moved() + second.bytes_moved(), 1400 * kPage);
}

TEST_F(ActuatorFaults, PagesMovedElsewhereAfterNumaMapsWasReadAreLeftAlone) {
  constexpr std::int64_t kPages = 2000;
  add_process(100, kPages);
  bool moved_by_someone_else = false;
  hooked.before_move = [&](int pid, bool) {
    if (!moved_by_someone_else) {
      moved_by_someone_else = true;
      for (std::int64_t i = 0; i < kPages; i += 2) {
        memory.page(pid, vma_start(pid) + static_cast<std::uintptr_t>(i * kPage)).node = 2;
      }
      memory.sync_proc_files();
    }
  };

  auto report = run({pid_target(100)});

  EXPECT_TRUE(report.errors.empty());
  EXPECT_EQ(report.bytes_moved(), kPages / 2 * kPage);
  EXPECT_EQ(memory.bytes_on(100, 2), kPages / 2 * kPage);
  EXPECT_EQ(memory.bytes_on(100, 1), kPages / 2 * kPage);
  EXPECT_EQ(memory.bytes_on(100, 0), 0);
}

TEST_F(ActuatorFaults, CgroupRemovedAfterTheDecisionIsAnErrorForItAloneAndOthersMove) {
  add_process(100, 500);
  add_process(200, 500);
  tree.make_file("cg/gone/cgroup.procs", "100\n");
  tree.make_file("cg/stays/cgroup.procs", "200\n");
  memory.exit_process(100);
  tree.remove("cg/gone");

  auto report = run({cgroup_target("gone"), cgroup_target("stays")});

  EXPECT_EQ(report.bytes_moved(), 500 * kPage);
  EXPECT_EQ(memory.bytes_on(200, 1), 500 * kPage);
  ASSERT_EQ(report.containers.size(), 2u);
  EXPECT_EQ(report.containers[0].bytes_moved(), 0);
}

}  // namespace
}  // namespace nb::reliability
