#pragma once
// The walk: finds a VMA's pages on the source node and queues them for the mover. The page map
// says which pages are resident and, for root, on which node; pages it cannot place are asked
// about with move_pages queries of up to kQueryChunk addresses. numa_maps' count of pages on
// the source ends the walk of a VMA early once they are all found, whichever of its spans (see
// walk_order.hpp) found them.

#include <cstddef>
#include <filesystem>
#include <functional>

#include "actuator/job_ledger.hpp"
#include "actuator/memory_syscalls.hpp"
#include "actuator/migration_report.hpp"
#include "actuator/numa_maps.hpp"
#include "actuator/process_move.hpp"
#include "actuator/walk_order.hpp"

namespace nb::actuator {

class PageWalk {
 public:
  // move_pages queries of this many addresses: one call per 16 MiB of 4 KiB pages.
  static constexpr std::size_t kQueryChunk = 4096;

  PageWalk(MemorySyscalls& syscalls, const std::filesystem::path& proc_root, JobLedger& ledger,
           NodeId source)
      : syscalls_(syscalls), proc_root_(proc_root), ledger_(ledger), source_(source) {}

  // Walks `vma` of `process`, queueing what is on the source and calling `drain` after every
  // chunk so the mover can take full batches. False when the process or the job is done: the
  // drain said so, the process vanished, or a query failed.
  bool walk(const Vma& vma, ProcessMove& process, ProcessReport& report,
            const std::function<bool()>& drain);
  // Walks one span of `vma`. `found` holds the base pages of the VMA that its earlier spans found
  // on the source, and grows by this span's: once it reaches numa_maps' count, the span is not
  // walked further (it is not walked at all when the count was reached before it).
  bool walk(const Vma& vma, const WalkSpan& span, std::int64_t& found, ProcessMove& process,
            ProcessReport& report, const std::function<bool()>& drain);

 private:
  MemorySyscalls& syscalls_;
  const std::filesystem::path& proc_root_;
  JobLedger& ledger_;
  NodeId source_;
};

}  // namespace nb::actuator
