// Pinning against the running kernel, on children this test forks: a pidfd that polls exited
// once the child is killed, the child's own cgroup line, and a job whose child is killed and
// reaped between its plan and its first move.

#include <numa.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "actuator/linux_memory_syscalls.hpp"
#include "actuator/migration_job.hpp"
#include "actuator/pinned_process.hpp"

namespace nb::actuator {
namespace {

// A child that touches a few MiB and waits to be killed.
class Sleeper {
 public:
  Sleeper() {
    pid_ = ::fork();
    if (pid_ == 0) {
      std::vector<char> memory(4 * kMiB);
      std::memset(memory.data(), 1, memory.size());
      for (;;) {
        ::pause();
      }
    }
  }
  ~Sleeper() { reap(); }
  Sleeper(const Sleeper&) = delete;
  Sleeper& operator=(const Sleeper&) = delete;

  int pid() const { return pid_; }
  // Killed, not reaped: a zombie whose pid no other process can take yet.
  void kill() {
    ::kill(pid_, SIGKILL);
    for (int i = 0; i < 500 && state() != 'Z'; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  void reap() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }

 private:
  char state() const {
    std::ifstream stat("/proc/" + std::to_string(pid_) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    auto close = text.rfind(')');
    return close == std::string::npos || close + 2 >= text.size() ? '?' : text[close + 2];
  }

  int pid_ = -1;
};

// This test's own cgroup in the v2 hierarchy, which its children inherit.
std::optional<CgroupName> own_v2_cgroup() {
  auto path = process_cgroup("/proc", ::getpid(), true);
  if (!path) {
    return std::nullopt;
  }
  return CgroupName{true, *path};
}

TEST(RealPinning, APinnedChildIsTheSameUntilItIsKilled) {
  Sleeper child;
  ASSERT_GT(child.pid(), 0);
  LinuxMemorySyscalls syscalls;
  auto pinned = PinnedProcess::pin(syscalls, "/proc", child.pid(), own_v2_cgroup());
  ASSERT_TRUE(pinned.ok()) << pinned.error().message();
  EXPECT_TRUE(pinned->still_same());
  child.kill();
  EXPECT_FALSE(pinned->still_same());
}

TEST(RealPinning, AChildOutsideTheCgroupIsNotPinned) {
  Sleeper child;
  ASSERT_GT(child.pid(), 0);
  if (!own_v2_cgroup()) {
    GTEST_SKIP() << "this host's /proc/PID/cgroup has no v2 line";
  }
  LinuxMemorySyscalls syscalls;
  auto pinned = PinnedProcess::pin(syscalls, "/proc", child.pid(),
                                   CgroupName{true, "/no-such-cgroup-of-numabalancer"});
  ASSERT_FALSE(pinned.ok());
  EXPECT_TRUE(pinned.error().vanished());
}

// The real calls, with the pid of every page call kept, and the child killed and reaped when the
// job first reads free memory: after its plan, before its first move.
class KillingSyscalls final : public MemorySyscalls {
 public:
  explicit KillingSyscalls(Sleeper& child) : child_(child) {}

  SyscallResult move_pages(int pid, std::span<const std::uintptr_t> pages,
                           std::span<const int> nodes, std::span<int> status,
                           bool move_all) override {
    touched.push_back(pid);
    return real_.move_pages(pid, pages, nodes, status, move_all);
  }
  SyscallResult migrate_pages(int pid, NodeId from, NodeId to) override {
    touched.push_back(pid);
    return real_.migrate_pages(pid, from, to);
  }
  Result<std::vector<ResidentRange>> resident_ranges(int pid, std::uintptr_t start,
                                                     std::uintptr_t end) override {
    touched.push_back(pid);
    return real_.resident_ranges(pid, start, end);
  }
  Result<NodeMemory> node_memory(NodeId node) override {
    child_.reap();
    return real_.node_memory(node);
  }
  Result<int> open_pidfd(int pid) override { return real_.open_pidfd(pid); }
  bool pidfd_exited(int pidfd) override { return real_.pidfd_exited(pidfd); }
  void close_pidfd(int pidfd) override { real_.close_pidfd(pidfd); }
  Clock::time_point now() override { return real_.now(); }
  void sleep_for(Clock::duration duration) override { real_.sleep_for(duration); }

  std::vector<int> touched;

 private:
  Sleeper& child_;
  LinuxMemorySyscalls real_;
};

TEST(RealPinning, AChildReapedBetweenPlanAndFirstMoveIsVanishedAndNeverTouched) {
  if (numa_available() < 0) {
    GTEST_SKIP() << "libnuma reports no NUMA support on this host";
  }
  Sleeper child;
  ASSERT_GT(child.pid(), 0);
  int pid = child.pid();
  MigrationTarget target;
  target.container_id = "child";
  target.pid = pid;
  target.dest_nodes = {0};
  JobOptions options;
  options.source_node = 0;
  options.rate_limit_mib_per_s = 0;
  KillingSyscalls syscalls(child);
  std::atomic<bool> cancel{false};
  auto report = run_migration({target}, options, syscalls, "/proc", cancel, {});
  EXPECT_EQ(std::count(syscalls.touched.begin(), syscalls.touched.end(), pid), 0);
  EXPECT_EQ(report.vanished_pids, std::vector<int>{pid});
  ASSERT_EQ(report.containers.size(), 1u);
  ASSERT_EQ(report.containers[0].processes.size(), 1u);
  EXPECT_TRUE(report.containers[0].processes[0].vanished);
  EXPECT_EQ(report.bytes_moved(), 0);
}

}  // namespace
}  // namespace nb::actuator
