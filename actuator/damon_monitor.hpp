#pragma once
// One DAMON run over some of a job's processes, through the sysfs seam: it creates one kdamond
// per process (a scheme's tried regions do not say which target they belong to), each with the
// vaddr operations and a `stat` scheme whose access pattern admits every region, turns them on,
// waits the hotness window on the job's clock, asks each for the regions its scheme was tried
// on, and reads them. Its kdamonds are turned off and removed on every way out: the end of the
// run, cancel, an error at any write. It uses DAMON only while no one else does (see
// damon_kdamonds.hpp).

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <vector>

#include "actuator/damon_kdamonds.hpp"
#include "actuator/damon_sysfs.hpp"
#include "actuator/memory_syscalls.hpp"
#include "base/result.hpp"
#include "base/units.hpp"

namespace nb::actuator {

// A region of a process's address space as DAMON saw it, [start, end).
struct DamonRegion {
  std::uintptr_t start = 0;
  std::uintptr_t end = 0;
  std::uint64_t nr_accesses = 0;  // accesses seen in the last aggregation interval's samples
  std::uint64_t age = 0;          // aggregation intervals its access rate has held
};

struct DamonIntervals {
  std::chrono::microseconds sample{0};
  std::chrono::microseconds aggregation{0};
  std::chrono::microseconds update{0};  // how often vaddr re-reads the process's mappings
};

// Intervals for a window: 20 aggregations per window and 20 samples per aggregation, but no
// aggregation shorter than 5 ms nor sample shorter than 1 ms, which cost more than they tell.
DamonIntervals damon_intervals(Duration window);

struct DamonWatch {
  // The regions of each process DAMON watched to the end of the window.
  std::map<int, std::vector<DamonRegion>> regions;
  // Why a process asked about has no regions (the first reason), when one has none: DAMON absent
  // or busy, a write that failed, the cancel.
  std::optional<Error> failure;
  bool cancelled = false;
  // Its kdamonds could not be removed (the next start-up removes them): worth an operator's eye.
  std::optional<Error> cleanup_failure;
  std::chrono::nanoseconds cost{0};  // set-up, window and clean-up on the job's clock
};

class DamonMonitor {
 public:
  // The most processes one run watches: each is a kernel thread sampling for the whole window.
  static constexpr std::size_t kMaxProcesses = 16;

  // `clock` is the job's clock and sleep (the syscall seam); `proc_root` tells whether the
  // numabalancer process that left kdamonds behind is still running; `own_pid` marks ours.
  DamonMonitor(DamonSysfs& sysfs, MemorySyscalls& clock, std::filesystem::path proc_root,
               int own_pid);

  // Watches the first kMaxProcesses of `pids` for `window`. Cancel is honoured at least every
  // 50 ms of the window.
  DamonWatch watch(const std::vector<int>& pids, Duration window, const std::atomic<bool>& cancel);

 private:
  void run(KdamondSession& session, const std::vector<int>& pids, Duration window,
           const std::atomic<bool>& cancel, DamonWatch& watch);
  Status claim_list();
  Status configure(std::size_t index, int pid, const DamonIntervals& intervals);
  bool wait(Duration window, const std::atomic<bool>& cancel);
  Result<std::vector<DamonRegion>> collect(std::size_t index);
  Result<DamonRegion> read_region(const std::string& dir);

  DamonSysfs& sysfs_;
  MemorySyscalls& clock_;
  std::filesystem::path proc_root_;
  int own_pid_;
};

}  // namespace nb::actuator
