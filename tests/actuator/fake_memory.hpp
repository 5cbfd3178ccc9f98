#pragma once
// An in-memory model of processes, pages and nodes behind the MemorySyscalls seam, with its
// /proc files (maps, numa_maps) kept in a TempTree. It follows the kernel's move_pages rules the
// engine depends on and lets a test inject every errno. Its clock only moves when a call "takes
// time" (a cost per page) or the engine sleeps. Its pidfds model the kernel's: one polls exited
// once its process has exited (a zombie too) or its pid names a new process.

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actuator/memory_syscalls.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::actuator::testing {

struct FakePage {
  NodeId node = 0;
  Bytes size = 4 * kKiB;  // 2 MiB for a transparent huge page, stored at its head address
  bool shared = false;    // mapped by another process: EACCES without move_all
  int busy_answers = 0;   // how many move requests answer EBUSY before it moves
};

struct FakeVma {
  std::uintptr_t start = 0;
  std::uintptr_t end = 0;
  Bytes page_size = 4 * kKiB;  // 2 MiB with hugetlb
  bool hugetlb = false;
  std::int64_t map_max = 1;
};

struct FakeProcess {
  std::vector<FakeVma> vmas;
  std::map<std::uintptr_t, FakePage> pages;
  bool exited = false;
  bool zombie = false;              // exited, not yet reaped: move_pages says EINVAL, stat says Z
  std::uint64_t start_time = 4242;  // field 22 of its stat
  // Its /proc/PID/cgroup: a hybrid host's shape, in the root of both hierarchies.
  std::string cgroup = "4:memory:/\n0::/\n";
  int generation = 0;  // which process the pid names: pidfds of an earlier one poll exited
};

// A call-level failure injected into the next move call: `processed` entries are handled first.
struct InjectedFailure {
  int error = 0;
  std::size_t processed = 0;
};

struct RecordedCall {
  int pid = 0;
  bool query = false;
  std::vector<std::uintptr_t> pages;
  std::vector<int> nodes;
  bool move_all = false;
};

class FakeMemory final : public MemorySyscalls {
 public:
  explicit FakeMemory(const nb::testing::TempTree& tree);

  // Model building. Pages are placed at consecutive addresses from the VMA's start.
  void add_node(NodeId node, Bytes total, Bytes free);
  FakeVma& add_vma(int pid, std::uintptr_t start, std::uintptr_t end, Bytes page_size = 4 * kKiB);
  void add_pages(int pid, std::uintptr_t start, std::int64_t count, NodeId node,
                 Bytes size = 4 * kKiB);
  FakePage& page(int pid, std::uintptr_t address);
  void exit_process(int pid);
  void make_zombie(int pid);
  // The identity /proc shows for pid: its stat's start time and its /proc/PID/cgroup lines.
  void set_start_time(int pid, std::uint64_t start_time);
  void set_cgroup(int pid, std::string lines);
  // The process exited and was reaped, and a new one (another start time) now has its pid.
  void reuse_pid(int pid);
  std::size_t open_pidfds() const { return pidfds_.size(); }
  int zombie_after_moves = -1;  // the process moved by this move call becomes a zombie after it
  void sync_proc_files();

  Bytes bytes_on(int pid, NodeId node) const;
  Bytes free_on(NodeId node) const { return nodes_.at(node).free_bytes; }

  // Behaviour knobs.
  Clock::duration cost_per_page{std::chrono::microseconds(5)};  // per 4 KiB actually moved
  Clock::duration cost_per_call{std::chrono::microseconds(20)};
  std::deque<InjectedFailure> move_failures;   // consumed by non-query move_pages calls
  std::optional<int> migrate_failure;          // errno for migrate_pages
  std::optional<int> resident_failure;         // errno for resident_ranges
  std::set<NodeId> enomem_nodes;               // every page sent there answers ENOMEM
  std::set<std::uintptr_t> unmap_before_move;  // freed just before the next move call
  // Pages whose move fails this many times while their status still names the destination, as
  // the kernel does for pages of a batch that failed to migrate (the call returns their count).
  std::map<std::uintptr_t, int> silent_failures;
  // resident_ranges names each page's node, as the page map's frame numbers do for root.
  bool pages_placed = false;
  bool huge_page_quirk = false;  // 6.1: one 4 KiB entry per huge page answers EBUSY
  int exit_after_moves = -1;     // the process moved by this move call exits after it
  std::optional<int> cancel_after_moves;
  std::atomic<bool>* cancel_flag = nullptr;
  // Runs after every move_pages (queries too) and migrate_pages call, with the call's pid.
  std::function<void(int pid)> after_call;
  std::optional<int> pidfd_failure;  // errno for open_pidfd

  std::vector<RecordedCall> calls;
  std::vector<int> touched_pids;  // every pid a page call (move, migrate, page map) named
  int bad_pidfd_closes = 0;       // closes of a pidfd not open
  int pidfd_opens = 0;
  int move_calls = 0;
  int migrate_calls = 0;
  int node_memory_calls = 0;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> resident_reads;  // [start, end) asked
  Clock::duration slept{0};

  SyscallResult move_pages(int pid, std::span<const std::uintptr_t> pages,
                           std::span<const int> nodes, std::span<int> status,
                           bool move_all) override;
  SyscallResult migrate_pages(int pid, NodeId from, NodeId to) override;
  Result<std::vector<ResidentRange>> resident_ranges(int pid, std::uintptr_t start,
                                                     std::uintptr_t end) override;
  Result<NodeMemory> node_memory(NodeId node) override;
  Result<int> open_pidfd(int pid) override;
  bool pidfd_exited(int pidfd) override;
  void close_pidfd(int pidfd) override;
  Clock::time_point now() override { return clock_; }
  void sleep_for(Clock::duration duration) override;

 private:
  FakePage* find_page(FakeProcess& process, std::uintptr_t address, std::uintptr_t* head);
  bool move_one(FakePage& page, NodeId to);
  // The node of each page asked about, as move_pages(2) answers a query.
  void answer_query(FakeProcess& process, std::span<const std::uintptr_t> pages,
                    std::span<int> status);
  // What happens after a move call: the proc files follow, and the injected exit, zombie and
  // cancel fire when their call count comes.
  void after_move_call(int pid);

  const nb::testing::TempTree& tree_;
  std::map<int, FakeProcess> processes_;
  std::map<NodeId, NodeMemory> nodes_;
  std::map<int, std::pair<int, int>> pidfds_;  // fd -> pid, generation
  int next_pidfd_ = 1000;
  Clock::time_point clock_{};
};

}  // namespace nb::actuator::testing
