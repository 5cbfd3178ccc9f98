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

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "actuator/frame_nodes.hpp"
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

// A child that touches its memory, sends the memory's address through a pipe, then waits to be
// killed (or exits on its own after `exit_after`).
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
      auto address = reinterpret_cast<std::uintptr_t>(memory);
      if (::write(ready[1], &address, sizeof(address)) != sizeof(address)) {
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
    std::uintptr_t address = 0;
    ready_ = ::read(ready[0], &address, sizeof(address)) == sizeof(address);
    ::close(ready[0]);
    memory_ = {address, address + static_cast<std::uintptr_t>(spec.bytes)};
  }

  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  int pid() const { return pid_; }
  bool ready() const { return ready_; }
  // The touched memory, [start, end), in the child's address space.
  std::pair<std::uintptr_t, std::uintptr_t> memory() const { return memory_; }

 private:
  int pid_ = -1;
  bool ready_ = false;
  std::pair<std::uintptr_t, std::uintptr_t> memory_;
};

// Counts the entries of move requests that fall inside one address range, to see huge pages go
// by their head address.
class CountingSyscalls final : public MemorySyscalls {
 public:
  explicit CountingSyscalls(std::pair<std::uintptr_t, std::uintptr_t> counted) : counted(counted) {}

  SyscallResult move_pages(int pid, std::span<const std::uintptr_t> pages,
                           std::span<const int> nodes, std::span<int> status,
                           bool move_all) override {
    if (!nodes.empty()) {
      auto inside = std::count_if(pages.begin(), pages.end(), [this](std::uintptr_t page) {
        return page >= counted.first && page < counted.second;
      });
      move_entries += inside;
      other_entries += static_cast<std::int64_t>(pages.size()) - inside;
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
  Result<int> open_pidfd(int pid) override { return real.open_pidfd(pid); }
  bool pidfd_exited(int pidfd) override { return real.pidfd_exited(pidfd); }
  void close_pidfd(int pidfd) override { real.close_pidfd(pidfd); }
  Clock::time_point now() override { return real.now(); }
  void sleep_for(Clock::duration duration) override { real.sleep_for(duration); }

  LinuxMemorySyscalls real;
  std::pair<std::uintptr_t, std::uintptr_t> counted;
  std::int64_t move_entries = 0;
  std::int64_t other_entries = 0;
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

// AnonHugePages of the VMA of `pid` that contains `address`, from /proc/PID/smaps.
Bytes anon_huge_bytes(int pid, std::uintptr_t address) {
  std::ifstream smaps("/proc/" + std::to_string(pid) + "/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t start = 0;
    std::uintptr_t end = 0;
    char dash = 0;
    std::istringstream header(line);
    if (header >> std::hex >> start >> dash >> end && dash == '-') {
      inside = address >= start && address < end;
    } else if (inside && line.rfind("AnonHugePages:", 0) == 0) {
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
  // Only the entries for the child's own 16 MiB are counted: the rest of a forked child (pages
  // it shares with this test process) changes from one child to the next, by thousands of pages
  // under ASan, whose allocator and quarantine keep growing this process between the two forks.
  struct Run {
    std::int64_t entries = 0;
    std::int64_t elsewhere = 0;
    Bytes huge_bytes = 0;
  };
  auto run_child = [&](bool huge_pages) {
    ChildSpec spec = touching(16 * kMiB);
    spec.huge_pages = huge_pages;
    Child child(spec);
    Run run;
    EXPECT_TRUE(child.ready());
    if (!child.ready()) {
      return run;
    }
    run.huge_bytes = anon_huge_bytes(child.pid(), child.memory().first);
    CountingSyscalls syscalls(child.memory());
    auto report = run_migration({pid_target(child.pid())}, options, syscalls, "/proc", cancel, {});
    EXPECT_GE(report.bytes_placed(), 16 * kMiB);
    run.entries = syscalls.move_entries;
    run.elsewhere = syscalls.other_entries;
    return run;
  };
  Run small = run_child(false);
  EXPECT_EQ(small.huge_bytes, 0);
  EXPECT_EQ(small.entries, 16 * kMiB / (4 * kKiB)) << "entries elsewhere " << small.elsewhere;
  Run huge = run_child(true);
  // The kernel may decline huge pages (fragmented memory): then there is nothing to prove here.
  if (huge.huge_bytes < 8 * kMiB) {
    GTEST_SKIP() << "the kernel gave the child only " << huge.huge_bytes
                 << " bytes of transparent huge pages";
  }
  // One head address per huge page, one entry per 4 KiB page for the rest.
  std::int64_t expected = huge.huge_bytes / (2 * kMiB) + (16 * kMiB - huge.huge_bytes) / (4 * kKiB);
  EXPECT_EQ(huge.entries, expected)
      << huge.huge_bytes / kKiB << " KiB of huge pages; entries "
      << "elsewhere " << huge.elsewhere << " (small child " << small.elsewhere << ")";
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

// As root on a kernel that lists its memory blocks, a run of resident pages comes back with its
// node (here the only one), so the engine need not ask move_pages about each page.
TEST_F(RealMigration, ResidentRangesNameTheNodeOfARunOfPages) {
  if (::geteuid() != 0 || !FrameNodes::read("/sys").ok()) {
    GTEST_SKIP() << "needs root and /sys/devices/system/memory";
  }
  LinuxMemorySyscalls syscalls;
  Bytes size = 64 * kMiB;
  auto* memory =
      static_cast<char*>(::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  ASSERT_NE(memory, MAP_FAILED);
  ::madvise(memory, static_cast<std::size_t>(size), MADV_NOHUGEPAGE);
  for (Bytes offset = 0; offset < 8 * kMiB; offset += 4 * kKiB) {
    memory[offset] = 1;
  }
  memory[32 * kMiB] = 1;
  auto start = reinterpret_cast<std::uintptr_t>(memory);
  auto ranges =
      syscalls.resident_ranges(::getpid(), start, start + static_cast<std::uintptr_t>(size));
  ::munmap(memory, static_cast<std::size_t>(size));
  ASSERT_TRUE(ranges.ok()) << ranges.error().message();
  std::uintptr_t placed = 0;
  std::uintptr_t exclusive = 0;
  for (const auto& range : *ranges) {
    if (!range.maybe_shared) {
      exclusive += (range.end - range.start) / 4096;
    }
    if (range.node && !range.maybe_shared) {
      EXPECT_EQ(*range.node, 0);
      placed += (range.end - range.start) / 4096;
    }
  }
  EXPECT_EQ(exclusive, 2049u) << "8 MiB written and one lone page";
  EXPECT_GE(placed, 2048u) << "the written run comes back with its node";
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
