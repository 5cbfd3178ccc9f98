#include "actuator/page_mover.hpp"

#include <algorithm>
#include <cerrno>
#include <limits>
#include <string>

#include "actuator/process_exit.hpp"

namespace nb::actuator {
namespace {

// The kernel never writes this into a status entry: it marks entries a failed call did not reach.
constexpr int kUntouched = std::numeric_limits<int>::min();
// How often free memory on the destinations is re-read, and how near its floor (in batches) a
// destination must be to be re-read before every batch.
constexpr Clock::duration kRefreshInterval = std::chrono::milliseconds(100);
constexpr std::int64_t kNearFloorBatches = 4;

}  // namespace

PageMover::PageMover(const JobOptions& options, MemorySyscalls& syscalls,
                     const std::filesystem::path& proc_root, DestinationPicker& picker,
                     JobPacer& pacer, JobLedger& ledger, std::function<void()> on_batch)
    : options_(options),
      syscalls_(syscalls),
      proc_root_(proc_root),
      picker_(picker),
      pacer_(pacer),
      ledger_(ledger),
      on_batch_(std::move(on_batch)),
      sizer_(options.call_target) {}

// Free memory is re-read every kRefreshInterval, and before every batch once a destination is
// within a few batches of its floor; in between the picker counts down what this job moved there.
// The job's start and the fast path, which hands a whole footprint over at once, always read it.
// Reading it costs a sysfs read per destination, which at one per batch was a visible share of a
// job on an emulated machine.
void PageMover::refresh_destinations(bool now_required) {
  auto now = syscalls_.now();
  Bytes close = kNearFloorBatches * sizer_.pages() * kBasePageBytes;
  bool near_floor =
      std::any_of(picker_.destinations().begin(), picker_.destinations().end(),
                  [close](const Destination& d) { return !d.dropped && d.headroom() <= close; });
  if (now_required || near_floor || !last_refresh_ || now - *last_refresh_ >= kRefreshInterval) {
    picker_.refresh(syscalls_);
    last_refresh_ = now;
  }
}

bool PageMover::move_pending(const TargetPlan& plan, ProcessMove& process, ProcessReport& report,
                             bool flush) {
  while (!process.pending.empty()) {
    if (!flush && process.pending.base_pages() < sizer_.pages()) {
      return true;
    }
    if (pacer_.should_stop() || ledger_.remaining(plan.cap) <= 0) {
      process.pending.clear();
      return false;
    }
    if (options_.dry_run) {
      // Nothing moves; what was found counts against the budget so the walk stops where a real
      // run would.
      ledger_.record_found(process.pending.base_pages() * kBasePageBytes);
      process.pending.clear();
      return ledger_.remaining(plan.cap) > 0;
    }
    if (!move_batch(plan, process, report)) {
      return false;
    }
  }
  return true;
}

bool PageMover::move_batch(const TargetPlan& plan, ProcessMove& process, ProcessReport& report) {
  auto pick = pick_destination(plan, process);
  if (!pick) {
    return false;
  }
  NodeId dest = pick->node;
  auto size = size_batch(*pick, ledger_.remaining(plan.cap), process);
  if (!size) {
    picker_.drop(dest, "free memory too close to its floor for the next page");
    return true;
  }
  if (size->count == 0) {
    return false;
  }
  if (!pacer_.wait_for_tokens(size->bytes)) {
    process.pending.clear();
    return false;
  }
  if (!process.confirm(report)) {
    return false;
  }
  auto batch = process.pending.front(size->count);
  auto& addresses = batch_.addresses;
  addresses.clear();
  for (const auto& entry : batch) {
    addresses.push_back(entry.address);
  }
  batch_.nodes.assign(batch.size(), dest);
  batch_.status.assign(batch.size(), kUntouched);
  SyscallResult result =
      timed_move(process.pid, addresses, batch_.nodes, batch_.status, report, size->base_pages);
  if (result.ok() && result.rc > 0) {
    confirm_moved(process.pid, addresses, batch_.status, report);
  }
  // Nothing proves the call moved this process's pages rather than another's: none count.
  if (!process.confirm(report)) {
    return false;
  }

  std::vector<PageEntry> busy;
  std::vector<PageEntry> retry;
  classify(batch, batch_.status, dest, plan, report, busy, retry);
  process.pending.pop_front(size->count);  // `batch` points into the queue: not used past here
  if (!result.ok() && !survive_call_failure(result.error, dest, process, report)) {
    return false;
  }
  retry_busy(busy, dest, plan, process, report);
  if (process.done) {
    process.pending.clear();
    return false;
  }
  // Untouched entries and pages refused for lack of memory get one more chance elsewhere.
  for (auto it = retry.rbegin(); it != retry.rend(); ++it) {
    process.pending.push_front(*it);
  }
  on_batch_();
  return !pacer_.should_stop();
}

// The next destination for this process, or none: then the process is done, and so is the job
// when every destination has been dropped.
std::optional<Pick> PageMover::pick_destination(const TargetPlan& plan, ProcessMove& process) {
  refresh_destinations();
  auto excluded = excluded_for(plan, process);
  auto pick = picker_.pick(excluded);
  if (!pick) {
    bool any_left = std::any_of(picker_.destinations().begin(), picker_.destinations().end(),
                                [](const Destination& d) { return !d.dropped; });
    if (!any_left) {
      pacer_.stop(StopReason::no_destination);
    }
    process.pending.clear();
    process.done = true;
  }
  return pick;
}

// Takes entries up to the batch size, the budget and what the destination may still take; a
// huge page may overshoot the budget, never the destination's floor. None when even the first
// page would take the destination below its floor.
std::optional<PageMover::BatchSize> PageMover::size_batch(const Pick& pick, Bytes budget_left,
                                                          const ProcessMove& process) const {
  auto waiting = process.pending.front(
      std::min(process.pending.size(), static_cast<std::size_t>(BatchSizer::kMaxAddresses)));
  BatchSize size;
  for (const PageEntry& next : waiting) {
    if (size.count > 0 &&
        (size.base_pages + next.base_pages > sizer_.pages() ||
         size.bytes + next.bytes() > pick.allowance || size.bytes >= budget_left)) {
      break;
    }
    if (size.count == 0 && next.bytes() > pick.allowance) {
      return std::nullopt;
    }
    if (size.bytes >= budget_left) {
      break;
    }
    ++size.count;
    size.base_pages += next.base_pages;
    size.bytes += next.bytes();
  }
  return size;
}

// A failed call: false when the process is done with (it exited, or the error leaves nothing
// to try); otherwise the destination is dropped or refused and the job carries on.
bool PageMover::survive_call_failure(int error, NodeId dest, ProcessMove& process,
                                     ProcessReport& report) {
  if (process_exited(proc_root_, process.pid, error)) {
    report.vanished = true;
    process.done = true;
    process.pending.clear();
    return false;
  }
  switch (error) {
    case ENOMEM:
      picker_.drop(dest, "move_pages answered ENOMEM");
      return true;
    case ENODEV:
      picker_.drop(dest, "move_pages answered ENODEV");
      return true;
    case EACCES:
      process.refused.push_back(dest);
      ledger_.add_error(EACCES,
                        "move_pages " + std::to_string(process.pid) + ": node " +
                            std::to_string(dest) + " is outside the process's cpuset",
                        process.pid);
      return true;
    default:
      ledger_.add_error(error, "move_pages " + std::to_string(process.pid), process.pid);
      process.done = true;
      process.pending.clear();
      return false;
  }
}

// A positive return counts pages the kernel failed to migrate, yet their status entries already
// name the destination; asking again tells which ones really moved.
void PageMover::confirm_moved(int pid, std::span<const std::uintptr_t> addresses,
                              std::span<int> status, ProcessReport& report) {
  NodeId source = options_.source_node;
  std::vector<int> now_on(addresses.size(), kUntouched);
  auto before = syscalls_.now();
  SyscallResult queried = syscalls_.move_pages(pid, addresses, {}, now_on, false);
  ledger_.record_call(syscalls_.now() - before, report);
  if (!queried.ok()) {
    return;
  }
  for (std::size_t i = 0; i < status.size(); ++i) {
    if (status[i] >= 0 && status[i] != source && now_on[i] == source) {
      status[i] = -EBUSY;
    }
  }
}

void PageMover::classify(std::span<const PageEntry> entries, std::span<const int> status,
                         NodeId dest, const TargetPlan& plan, ProcessReport& report,
                         std::vector<PageEntry>& busy, std::vector<PageEntry>& retry) {
  NodeId source = options_.source_node;
  for (std::size_t i = 0; i < entries.size();) {
    const PageEntry& entry = entries[i];
    int value = status[i];
    if (value >= 0) {
      // A batch's pages mostly share one outcome: count each run of equal nodes at once.
      std::size_t first = i;
      Bytes bytes = 0;
      Bytes accessed = 0;
      std::int64_t pages = 0;
      for (; i < entries.size() && status[i] == value; ++i) {
        bytes += entries[i].bytes();
        accessed += entries[i].accessed ? entries[i].bytes() : 0;
        pages += entries[i].base_pages;
      }
      if (value == source && plan.allows(source)) {
        ledger_.record_already(bytes, pages, report);
      } else if (value != source && plan.allows(value)) {
        credit_moved(value, bytes, pages, report, accessed);
      } else {
        report.outcomes.other += static_cast<std::int64_t>(i - first);
      }
      continue;
    }
    ++i;
    if (value == kUntouched) {
      retry.push_back(entry);
    } else if (value == -EBUSY) {
      busy.push_back(entry);
    } else if (value == -ENOMEM) {
      ++report.outcomes.no_memory;
      picker_.drop(dest, "a page could not be moved there: ENOMEM");
      if (!entry.requeued) {
        PageEntry again = entry;
        again.requeued = true;
        retry.push_back(again);
      }
    } else if (value == -EACCES) {
      ++report.outcomes.access_denied;
    } else if (value == -EFAULT || value == -ENOENT) {
      ++report.outcomes.unmapped;
    } else {
      ++report.outcomes.other;
    }
  }
}

// EBUSY is retried once. On 6.1 a huge page moved whole reports one of its 4 KiB entries busy,
// so the page is asked about first and counted as moved when it already has.
void PageMover::retry_busy(std::vector<PageEntry>& busy, NodeId dest, const TargetPlan& plan,
                           ProcessMove& process, ProcessReport& report) {
  if (busy.empty()) {
    return;
  }
  NodeId source = options_.source_node;
  std::vector<std::uintptr_t> addresses;
  for (const auto& entry : busy) {
    addresses.push_back(entry.address);
  }
  std::vector<int> status(busy.size(), kUntouched);
  auto before = syscalls_.now();
  SyscallResult queried = syscalls_.move_pages(process.pid, addresses, {}, status, false);
  ledger_.record_call(syscalls_.now() - before, report);
  if (!process.confirm(report)) {
    return;
  }
  if (!queried.ok()) {
    report.outcomes.busy += static_cast<std::int64_t>(busy.size());
    return;
  }
  std::vector<PageEntry> again;
  for (std::size_t i = 0; i < busy.size(); ++i) {
    if (status[i] >= 0 && status[i] != source && plan.allows(status[i])) {
      credit_moved(status[i], busy[i].bytes(), busy[i].base_pages, report,
                   busy[i].accessed ? busy[i].bytes() : 0);
    } else if (status[i] == source) {
      again.push_back(busy[i]);
    } else {
      ++report.outcomes.unmapped;
    }
  }
  if (again.empty()) {
    return;
  }
  addresses.clear();
  std::int64_t base_pages = 0;
  for (const auto& entry : again) {
    addresses.push_back(entry.address);
    base_pages += entry.base_pages;
  }
  std::vector<int> nodes(again.size(), dest);
  status.assign(again.size(), kUntouched);
  SyscallResult moved = timed_move(process.pid, addresses, nodes, status, report, base_pages);
  if (moved.ok() && moved.rc > 0) {
    confirm_moved(process.pid, addresses, status, report);
  }
  if (!process.confirm(report)) {
    return;
  }
  if (!moved.ok() && process_exited(proc_root_, process.pid, moved.error)) {
    report.vanished = true;
    process.done = true;
  }
  std::vector<PageEntry> still_busy;
  std::vector<PageEntry> unused_retry;
  classify(again, status, dest, plan, report, still_busy, unused_retry);
  report.outcomes.busy += static_cast<std::int64_t>(still_busy.size() + unused_retry.size());
}

SyscallResult PageMover::timed_move(int pid, std::span<const std::uintptr_t> pages,
                                    std::span<const int> nodes, std::span<int> status,
                                    ProcessReport& report, std::int64_t base_pages) {
  auto before = syscalls_.now();
  SyscallResult result = syscalls_.move_pages(pid, pages, nodes, status, options_.move_shared);
  auto took = syscalls_.now() - before;
  ledger_.record_call(took, report);
  sizer_.record(base_pages, took);
  return result;
}

void PageMover::credit_moved(NodeId node, Bytes bytes, std::int64_t pages, ProcessReport& report,
                             Bytes accessed) {
  if (bytes <= 0) {
    return;
  }
  ledger_.record_moved(node, bytes, pages, report);
  report.bytes_moved_accessed += accessed;
  picker_.record_moved(node, bytes);
}

// The destinations this process may not use: those its cpuset refused and those outside its
// target's list.
std::vector<NodeId> PageMover::excluded_for(const TargetPlan& plan,
                                            const ProcessMove& process) const {
  std::vector<NodeId> excluded = process.refused;
  for (const auto& destination : picker_.destinations()) {
    if (!plan.allows(destination.node)) {
      excluded.push_back(destination.node);
    }
  }
  return excluded;
}

}  // namespace nb::actuator
