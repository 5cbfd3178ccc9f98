// The engine against the running kernel, on child processes this test spawns. The build host has
// one node, so every move is "to node 0" and the pages count as already there; what this proves
// is the plumbing (numa_maps, pagemap, move_pages, cgroups, exits), not cross-node speed, which
// the multi-NUMA guest tests measure.

#include <fcntl.h>
#include <numa.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <set>
#include <thread>

#include "actuator/linux_memory_syscalls.hpp"
#include "actuator/migration_job.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::actuator {
namespace {

using namespace std::chrono_literals;

struct ChildSpec {
  Bytes bytes = 32 * kMiB;
  bool huge_pages = false;
  std::optional<std::chrono::milliseconds> exit_after;
};

ChildSpec touching(Bytes bytes) {
  ChildSpec spec;
  spec.bytes = bytes;
  return spec;
}

// A child that touches its memory, says so through a pipe, then waits to be killed (or exits
// on its own after `exit_after`).
class Child {
 public:
  explicit Child(const ChildSpec& spec) {
    int ready[2];
    if (::pipe(ready) != 0) {
      return;
    }
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(ready[0]);
      std::size_t size = static_cast<std::size_t>(spec.bytes);
      std::size_t align = 2 * kMiB;
      auto* raw = static_cast<char*>(::mmap(nullptr, size + align, PROT_READ | PROT_WRITE,
                                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
      if (raw == MAP_FAILED) {
        ::_exit(1);
      }
      char* memory = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(raw) + align - 1) &
                                             ~(std::uintptr_t{align} - 1));
      ::madvise(memory, size, spec.huge_pages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
      std::memset(memory, 1, size);
      char byte = 1;
      if (::write(ready[1], &byte, 1) != 1) {
        ::_exit(1);
      }
      if (spec.exit_after) {
        ::usleep(static_cast<useconds_t>(spec.exit_after->count() * 1000));
        ::_exit(0);
      }
      for (;;) {
        ::pause();
      }
    }
    ::close(ready[1]);
    char byte = 0;
    ready_ = ::read(ready[0], &byte, 1) == 1;
    ::close(ready[0]);
  }

  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  int pid() const { return pid_; }
  bool ready() const { return ready_; }

 private:
  int pid_ = -1;
  bool ready_ = false;
};

// Counts the entries of move requests, to see huge pages go by their head address.
class CountingSyscalls final : public MemorySyscalls {
 public:
  SyscallResult move_pages(int pid, std::span<const std::uintptr_t> pages,
                           std::span<const int> nodes, std::span<int> status,
                           bool move_all) override {
    if (!nodes.empty()) {
      move_entries += static_cast<std::int64_t>(pages.size());
    }
    return real.move_pages(pid, pages, nodes, status, move_all);
  }
  SyscallResult migrate_pages(int pid, NodeId from, NodeId to) override {
    return real.migrate_pages(pid, from, to);
  }
  Result<std::vector<ResidentRange>> resident_ranges(int pid, std::uintptr_t start,
                                                     std::uintptr_t end) override {
    return real.resident_ranges(pid, start, end);
  }
  Result<NodeMemory> node_memory(NodeId node) override { return real.node_memory(node); }
  Clock::time_point now() override { return real.now(); }
  void sleep_for(Clock::duration duration) override { real.sleep_for(duration); }

  LinuxMemorySyscalls real;
  std::int64_t move_entries = 0;
};

class RealMigration : public ::testing::Test {
 protected:
  void SetUp() override {
    if (numa_available() < 0) {
      GTEST_SKIP() << "libnuma reports no NUMA support on this host";
    }
    if (::geteuid() != 0) {
      GTEST_SKIP() << "moving another process's pages needs root (CAP_SYS_NICE)";
    }
    options.source_node = 0;
    options.rate_limit_mib_per_s = 0;
    options.fast_path_max_bytes = 0;
    options.min_free_bytes = 64 * kMiB;
  }

  MigrationTarget pid_target(int pid) {
    MigrationTarget target;
    target.container_id = "child";
    target.pid = pid;
    target.dest_nodes = {0};
    return target;
  }

  JobOptions options;
  std::atomic<bool> cancel{false};
};

TEST_F(RealMigration, MemoryMovedToNodeZeroCountsAsAlreadyThere) {
  Child child(touching(32 * kMiB));
  ASSERT_TRUE(child.ready());
  LinuxMemorySyscalls syscalls;
  auto report = run_migration({pid_target(child.pid())}, options, syscalls, "/proc", cancel, {});
  EXPECT_TRUE(report.errors.empty()) << report.errors[0].message;
  EXPECT_EQ(report.bytes_moved(), 0);
  EXPECT_GE(report.bytes_placed(), 32 * kMiB);
  EXPECT_GE(report.outcomes().already_on_destination, 32 * kMiB / (4 * kKiB));
  EXPECT_TRUE(report.threshold_met);
  EXPECT_EQ(report.stop_reason, StopReason::completed);
  EXPECT_GT(report.syscalls(), 0);
}

TEST_F(RealMigration, BudgetStopsTheWalkOnTheRealKernel) {
  Child child(touching(32 * kMiB));
  ASSERT_TRUE(child.ready());
  LinuxMemorySyscalls syscalls;
  options.budget = 8 * kMiB;
  auto report = run_migration({pid_target(child.pid())}, options, syscalls, "/proc", cancel, {});
  EXPECT_EQ(report.bytes_placed(), 8 * kMiB);
  EXPECT_EQ(report.stop_reason, StopReason::budget_met);
}

// AnonHugePages of a process, from /proc/PID/smaps_rollup.
Bytes anon_huge_bytes(int pid) {
  std::ifstream rollup("/proc/" + std::to_string(pid) + "/smaps_rollup");
  std::string line;
  while (std::getline(rollup, line)) {
    if (line.rfind("AnonHugePages:", 0) == 0) {
      return std::stoll(line.substr(14)) * kKiB;
    }
  }
  return 0;
}

TEST_F(RealMigration, HugePagesGoByTheirHeadAddress) {
  std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(thp, mode);
  if (mode.find("[never]") != std::string::npos) {
    GTEST_SKIP() << "transparent huge pages are disabled on this host";
  }
  Bytes huge_bytes = 0;
  auto entries_for = [&](bool huge_pages) {
    ChildSpec spec = touching(16 * kMiB);
    spec.huge_pages = huge_pages;
    Child child(spec);
    EXPECT_TRUE(child.ready());
    if (huge_pages) {
      huge_bytes = anon_huge_bytes(child.pid());
    }
    CountingSyscalls syscalls;
    auto report = run_migration({pid_target(child.pid())}, options, syscalls, "/proc", cancel, {});
    EXPECT_GE(report.bytes_placed(), 16 * kMiB);
    return syscalls.move_entries;
  };
  std::int64_t small = entries_for(false);
  std::int64_t huge = entries_for(true);
  // The kernel may decline huge pages (fragmented memory, or ASan's unaligned mappings): then
  // there is nothing to prove here.
  if (huge_bytes < 8 * kMiB) {
    GTEST_SKIP() << "the kernel gave the child only " << huge_bytes
                 << " bytes of transparent huge pages";
  }
  // The same 16 MiB: 4096 entries of 4 KiB, or 8 head addresses, so the huge run saves about
  // 4088 entries. The rest of each child (its small pages, shared with this test process) varies
  // by a few hundred between two children, so only three quarters of the saving is required:
  // walking huge pages page by page would save almost nothing.
  EXPECT_GE(small - huge, (4096 - 8) * 3 / 4) << "small " << small << ", huge " << huge;
}

TEST_F(RealMigration, ChildExitingDuringTheJobIsCountedAsVanished) {
  ChildSpec spec = touching(256 * kMiB);
  spec.exit_after = 150ms;
  Child child(spec);
  ASSERT_TRUE(child.ready());
  LinuxMemorySyscalls syscalls;
  options.rate_limit_mib_per_s = 256;  // about a second for the whole child: it exits midway
  auto report = run_migration({pid_target(child.pid())}, options, syscalls, "/proc", cancel, {});
  EXPECT_EQ(report.vanished_pids, std::vector<int>{child.pid()});
  EXPECT_TRUE(report.errors.empty())
      << report.errors[0].message << " errno " << report.errors[0].code;
  EXPECT_GT(report.bytes_placed(), 0);
  EXPECT_LT(report.bytes_placed(), 256 * kMiB);
}

// A cgroup v2 directory with a child cgroup, made for the test and removed afterwards.
class TestCgroup {
 public:
  explicit TestCgroup(const std::filesystem::path& mount) {
    std::string pattern = (mount / "nb-actuator-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return;
    }
    root_ = pattern;
    std::error_code error;
    std::filesystem::create_directory(root_ / "child", error);
    usable_ = !error && std::filesystem::exists(root_ / "cgroup.procs");
    mount_ = mount;
  }

  ~TestCgroup() {
    if (root_.empty()) {
      return;
    }
    for (const auto& dir : {root_ / "child", root_}) {
      std::ifstream procs(dir / "cgroup.procs");
      std::string pid;
      while (std::getline(procs, pid)) {
        std::ofstream(mount_ / "cgroup.procs") << pid << '\n';
      }
    }
    ::rmdir((root_ / "child").c_str());
    ::rmdir(root_.c_str());
  }

  bool usable() const { return usable_; }
  const std::filesystem::path& root() const { return root_; }

  bool add(const std::filesystem::path& dir, int pid) {
    std::ofstream procs(dir / "cgroup.procs");
    procs << pid << '\n';
    procs.flush();
    return static_cast<bool>(procs);
  }

 private:
  std::filesystem::path mount_;
  std::filesystem::path root_;
  bool usable_ = false;
};

std::optional<std::filesystem::path> writable_cgroup2_mount() {
  for (const char* candidate : {"/sys/fs/cgroup/unified", "/sys/fs/cgroup"}) {
    std::filesystem::path path(candidate);
    std::error_code error;
    if (std::filesystem::exists(path / "cgroup.procs", error) &&
        std::filesystem::exists(path / "cgroup.subtree_control", error) &&
        ::access(candidate, W_OK) == 0) {
      return path;
    }
  }
  return std::nullopt;
}

TEST_F(RealMigration, CgroupAndItsChildCgroupAreMovedTogether) {
  auto mount = writable_cgroup2_mount();
  if (!mount) {
    GTEST_SKIP() << "no writable cgroup v2 mount at /sys/fs/cgroup/unified or /sys/fs/cgroup";
  }
  TestCgroup cgroup(*mount);
  if (!cgroup.usable()) {
    GTEST_SKIP() << "cannot create a cgroup with a child under " << mount->string();
  }
  Child parent_member(touching(16 * kMiB));
  Child child_member(touching(8 * kMiB));
  ASSERT_TRUE(parent_member.ready() && child_member.ready());
  if (!cgroup.add(cgroup.root(), parent_member.pid()) ||
      !cgroup.add(cgroup.root() / "child", child_member.pid())) {
    GTEST_SKIP() << "cannot move processes into the test cgroup";
  }
  MigrationTarget target;
  target.container_id = "test";
  target.cgroup_dir = cgroup.root();
  target.dest_nodes = {0};
  LinuxMemorySyscalls syscalls;
  auto report = run_migration({target}, options, syscalls, "/proc", cancel, {});
  ASSERT_EQ(report.containers.size(), 1u);
  const auto& processes = report.containers[0].processes;
  ASSERT_EQ(processes.size(), 2u);
  std::set<int> pids{processes[0].pid, processes[1].pid};
  EXPECT_EQ(pids, (std::set<int>{parent_member.pid(), child_member.pid()}));
  EXPECT_GE(report.bytes_placed(), 24 * kMiB);
  EXPECT_TRUE(report.threshold_met);
}

TEST_F(RealMigration, ResidentRangesFindOnlyTouchedPagesOfASparseMapping) {
  LinuxMemorySyscalls syscalls;
  // Our own sparse mapping: 1 GiB reserved, 3 pages touched.
  Bytes size = kGiB;
  auto* memory =
      static_cast<char*>(::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  ASSERT_NE(memory, MAP_FAILED);
  ::madvise(memory, static_cast<std::size_t>(size), MADV_NOHUGEPAGE);
  memory[0] = 1;
  memory[100 * kMiB] = 1;
  memory[size - 1] = 1;
  auto start = reinterpret_cast<std::uintptr_t>(memory);
  auto ranges =
      syscalls.resident_ranges(::getpid(), start, start + static_cast<std::uintptr_t>(size));
  ::munmap(memory, static_cast<std::size_t>(size));
  ASSERT_TRUE(ranges.ok()) << ranges.error().message();
  std::uintptr_t pages = 0;
  for (const auto& range : *ranges) {
    pages += (range.end - range.start) / 4096;
  }
  EXPECT_EQ(pages, 3u);
}

TEST_F(RealMigration, UnknownNodeIsNoDevice) {
  LinuxMemorySyscalls syscalls;
  auto memory = syscalls.node_memory(numa_max_node() + 1);
  ASSERT_FALSE(memory.ok());
  EXPECT_EQ(memory.error().code, ENODEV);
  EXPECT_TRUE(syscalls.node_memory(0).ok());
}

}  // namespace
}  // namespace nb::actuator
