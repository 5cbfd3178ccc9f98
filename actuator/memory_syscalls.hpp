#pragma once
// The one seam between the migration engine and the kernel. Production wraps the real calls
// (LinuxMemorySyscalls); tests substitute a fake that drives every errno and owns the clock, so
// batch sizing, rate limiting and deadlines are tested without real time passing.

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "base/result.hpp"
#include "base/units.hpp"

namespace nb::actuator {

using Clock = std::chrono::steady_clock;

// What a system call returned: rc as the kernel gave it and errno when rc < 0.
struct SyscallResult {
  long rc = 0;
  int error = 0;

  bool ok() const { return rc >= 0; }
};

// A run of resident pages in a process's address space, [start, end). `huge` marks a range
// mapped by PMD-sized transparent huge pages or hugetlb pages. `maybe_shared` marks pages the page
// map does not show as this process's alone: pages other processes map too, or the zero page
// (which numa_maps does not count and move_pages cannot move). `node` is where the range's
// pages sit when the page map's frame numbers tell (a privileged reader on a kernel that lists
// its memory blocks); empty means unknown, and the engine then asks move_pages.
struct ResidentRange {
  std::uintptr_t start = 0;
  std::uintptr_t end = 0;
  bool huge = false;
  bool maybe_shared = false;
  std::optional<NodeId> node;
};

struct NodeMemory {
  Bytes total_bytes = 0;
  Bytes free_bytes = 0;
};

class MemorySyscalls {
 public:
  virtual ~MemorySyscalls() = default;

  // move_pages(2). An empty `nodes` only queries: status[i] becomes the page's node or -errno.
  // `status` must have pages.size() entries; entries the kernel did not reach keep their value.
  // `move_all` selects MPOL_MF_MOVE_ALL instead of MPOL_MF_MOVE.
  virtual SyscallResult move_pages(int pid, std::span<const std::uintptr_t> pages,
                                   std::span<const int> nodes, std::span<int> status,
                                   bool move_all) = 0;

  // migrate_pages(2) from one node to another: rc is the number of pages left behind.
  virtual SyscallResult migrate_pages(int pid, NodeId from, NodeId to) = 0;

  // The resident parts of [start, end) in pid, ascending, without zero-page mappings where the
  // kernel can tell them apart. An error means "unknown" and the caller falls back to asking
  // move_pages about every page.
  virtual Result<std::vector<ResidentRange>> resident_ranges(int pid, std::uintptr_t start,
                                                             std::uintptr_t end) = 0;

  // ENODEV for a node that does not exist or has no memory.
  virtual Result<NodeMemory> node_memory(NodeId node) = 0;

  // pidfd_open(2): a handle on the process `pid` names now; ESRCH when there is none. The job
  // holds one per process so that it notices the process exit before its pid can name another.
  virtual Result<int> open_pidfd(int pid) = 0;
  // Whether the process behind the pidfd has exited (it polls readable).
  virtual bool pidfd_exited(int pidfd) = 0;
  virtual void close_pidfd(int pidfd) = 0;

  virtual Clock::time_point now() = 0;
  virtual void sleep_for(Clock::duration duration) = 0;
};

}  // namespace nb::actuator
