#pragma once
// The mover: takes the pages the walk queued and moves them in batches sized by the BatchSizer,
// each to the destination the picker chooses, paid to the pacer first. It reads every page's
// outcome from move_pages' status array, retries busy pages once and pages refused for lack of
// memory once elsewhere, and drops destinations that fill up or fail. A small process may
// instead go whole in one migrate_pages call (the fast path).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "actuator/batch_sizer.hpp"
#include "actuator/destination_picker.hpp"
#include "actuator/job_ledger.hpp"
#include "actuator/job_options.hpp"
#include "actuator/job_pacer.hpp"
#include "actuator/job_plan.hpp"
#include "actuator/memory_syscalls.hpp"
#include "actuator/process_move.hpp"

namespace nb::actuator {

class PageMover {
 public:
  PageMover(const JobOptions& options, MemorySyscalls& syscalls,
            const std::filesystem::path& proc_root, DestinationPicker& picker, JobPacer& pacer,
            JobLedger& ledger, std::function<void()> on_batch);

  // Re-reads the destinations' free memory when it is due (or now, when required).
  void refresh_destinations(bool now_required = false);
  // Moves pending pages in batches while a full batch is waiting (or everything when flushing).
  // False when the process or the job is done.
  bool move_pending(const TargetPlan& plan, ProcessMove& process, ProcessReport& report,
                    bool flush);
  // The fast path: the whole footprint in one migrate_pages call. True when the process needs
  // no walk; `vmas` is re-read when the kernel left pages behind for the walk to count.
  bool move_whole_process(const TargetPlan& plan, ProcessMove& process, std::vector<Vma>& vmas,
                          ProcessReport& report);

 private:
  struct BatchSize {
    std::size_t count = 0;
    std::int64_t base_pages = 0;
    Bytes bytes = 0;
  };

  bool move_batch(const TargetPlan& plan, ProcessMove& process, ProcessReport& report);
  std::optional<Pick> pick_destination(const TargetPlan& plan, ProcessMove& process);
  std::optional<BatchSize> size_batch(const Pick& pick, Bytes budget_left,
                                      const ProcessMove& process) const;
  bool survive_call_failure(int error, NodeId dest, ProcessMove& process, ProcessReport& report);
  void classify(std::span<const PageEntry> entries, std::span<const int> status, NodeId dest,
                const TargetPlan& plan, ProcessReport& report, std::vector<PageEntry>& busy,
                std::vector<PageEntry>& retry);
  void confirm_moved(int pid, std::span<const std::uintptr_t> addresses, std::span<int> status,
                     ProcessReport& report);
  void retry_busy(std::vector<PageEntry>& busy, NodeId dest, const TargetPlan& plan,
                  ProcessMove& process, ProcessReport& report);
  SyscallResult timed_move(int pid, std::span<const std::uintptr_t> pages,
                           std::span<const int> nodes, std::span<int> status, ProcessReport& report,
                           std::int64_t base_pages);
  // `accessed`: how many of `bytes` came from regions DAMON saw accessed.
  void credit_moved(NodeId node, Bytes bytes, std::int64_t pages, ProcessReport& report,
                    Bytes accessed = 0);
  std::vector<NodeId> excluded_for(const TargetPlan& plan, const ProcessMove& process) const;

  const JobOptions& options_;
  MemorySyscalls& syscalls_;
  const std::filesystem::path& proc_root_;
  DestinationPicker& picker_;
  JobPacer& pacer_;
  JobLedger& ledger_;
  std::function<void()> on_batch_;
  BatchSizer sizer_;
  std::optional<Clock::time_point> last_refresh_;
  // The current batch's arrays, kept between batches: fresh ones would cost page faults on
  // every call, which an emulated or busy machine feels.
  struct BatchArrays {
    std::vector<std::uintptr_t> addresses;
    std::vector<int> nodes;
    std::vector<int> status;
  } batch_;
};

}  // namespace nb::actuator
