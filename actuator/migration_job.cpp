#include "actuator/migration_job.hpp"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <set>
#include <sstream>

#include "actuator/batch_sizer.hpp"
#include "actuator/destination_picker.hpp"
#include "actuator/job_plan.hpp"
#include "actuator/numa_maps.hpp"
#include "actuator/page_queue.hpp"
#include "actuator/token_bucket.hpp"

namespace nb::actuator {
namespace {

constexpr Bytes kPmdBytes = 2 * kMiB;
// move_pages queries of this many addresses: one call per 16 MiB of 4 KiB pages.
constexpr std::size_t kQueryChunk = 4096;
// 256 MiB of address space: 512 KiB of page-map entries, one read.
constexpr std::uintptr_t kFirstResidentWindow = 256 * 1024 * 1024;
// The kernel never writes this into a status entry: it marks entries a failed call did not reach.
constexpr int kUntouched = std::numeric_limits<int>::min();
// How often free memory on the destinations is re-read, and how near its floor (in batches) a
// destination must be to be re-read before every batch.
constexpr Clock::duration kRefreshInterval = std::chrono::milliseconds(100);
constexpr std::int64_t kNearFloorBatches = 4;
// Longest single sleep while waiting for rate tokens, so cancel and the deadline stay prompt.
constexpr Clock::duration kLongestWait = std::chrono::milliseconds(50);

bool has_shared_pages_on(const std::vector<Vma>& vmas, NodeId node) {
  return std::any_of(vmas.begin(), vmas.end(), [node](const Vma& vma) {
    return vma.pages_on(node) > 0 && vma.max_mappers > 1;
  });
}

class Job {
 public:
  Job(const std::vector<MigrationTarget>& targets, const JobOptions& options,
      MemorySyscalls& syscalls, const std::filesystem::path& proc_root,
      const std::atomic<bool>& cancel, const std::function<void(const JobProgress&)>& on_progress)
      : targets_(targets),
        options_(options),
        syscalls_(syscalls),
        proc_root_(proc_root),
        cancel_(cancel),
        on_progress_(on_progress),
        start_(syscalls.now()),
        deadline_at_(start_ + options.deadline),
        picker_(all_destinations(targets), options.min_free_bytes),
        bucket_(options.rate_limit_mib_per_s, std::chrono::milliseconds(100), start_),
        sizer_(options.call_target) {}

  MigrationReport run();

 private:
  void migrate_target(const TargetPlan& plan, ContainerReport& container);
  void migrate_process(const TargetPlan& plan, const ProcessPlan& process,
                       ContainerReport& container, ProcessReport& report);
  bool try_fast_path(const TargetPlan& plan, const ProcessPlan& process, std::vector<Vma>& vmas,
                     ProcessReport& report);
  bool walk_vma(const TargetPlan& plan, const Vma& vma, ProcessReport& report);
  bool move_pending(const TargetPlan& plan, ProcessReport& report, bool flush);
  bool move_batch(const TargetPlan& plan, ProcessReport& report);
  void classify(std::span<const PageEntry> entries, std::span<const int> status, NodeId dest,
                const TargetPlan& plan, ProcessReport& report, std::vector<PageEntry>& busy,
                std::vector<PageEntry>& retry);
  void confirm_moved(std::span<const std::uintptr_t> addresses, std::span<int> status,
                     ProcessReport& report);
  void retry_busy(std::vector<PageEntry>& busy, NodeId dest, const TargetPlan& plan,
                  ProcessReport& report);

  SyscallResult timed_move(int pid, std::span<const std::uintptr_t> pages,
                           std::span<const int> nodes, std::span<int> status, ProcessReport& report,
                           std::int64_t base_pages);
  void record_call(Clock::duration took, ProcessReport& report);
  void record_moved(NodeId node, Bytes bytes, std::int64_t pages, ProcessReport& report);
  void record_already(Bytes bytes, std::int64_t pages, ProcessReport& report);
  void add_error(int code, std::string message, std::optional<int> pid);
  bool exited(int pid, int error) const;
  bool wait_for_tokens(Bytes bytes);
  bool should_stop();
  void refresh_destinations(bool now_required = false);
  Bytes remaining(const TargetPlan& plan) const;
  std::vector<NodeId> excluded_for(const TargetPlan& plan) const;
  void report_progress();

  const std::vector<MigrationTarget>& targets_;
  const JobOptions& options_;
  MemorySyscalls& syscalls_;
  const std::filesystem::path& proc_root_;
  const std::atomic<bool>& cancel_;
  const std::function<void(const JobProgress&)>& on_progress_;
  Clock::time_point start_;
  Clock::time_point deadline_at_;
  DestinationPicker picker_;
  TokenBucket bucket_;
  BatchSizer sizer_;
  std::optional<Clock::time_point> last_refresh_;

  MigrationReport report_;
  std::optional<StopReason> stop_;
  Bytes moved_ = 0;
  Bytes placed_ = 0;
  Bytes target_placed_ = 0;
  // The process being walked: its pending pages and the destinations its cpuset refused.
  int pid_ = 0;
  std::string container_id_;
  PageQueue pending_;
  std::vector<NodeId> refused_;
  // The current batch's arrays, kept between batches: fresh ones would cost page faults on
  // every call, which an emulated or busy machine feels.
  struct BatchArrays {
    std::vector<std::uintptr_t> addresses;
    std::vector<int> nodes;
    std::vector<int> status;
  } batch_;
  bool process_done_ = false;
};

MigrationReport Job::run() {
  report_.source_node = options_.source_node;
  report_.dest_nodes = all_destinations(targets_);
  report_.dry_run = options_.dry_run;
  report_.move_shared = options_.move_shared;
  report_.budget = options_.budget;
  report_.threshold = options_.threshold;

  JobPlan job_plan = plan_job(targets_, options_.source_node, proc_root_);
  report_.errors = std::move(job_plan.errors);
  report_.vanished_pids = std::move(job_plan.vanished_pids);
  const auto& plans = job_plan.targets;
  report_.goal = std::min(options_.budget, job_plan.on_source());

  refresh_destinations(true);
  if (report_.goal <= 0) {
    stop_ = StopReason::nothing_to_move;
  }
  for (const auto& target_plan : plans) {
    ContainerReport container;
    container.id = target_plan.target->container_id;
    container.cgroup_dir = target_plan.target->cgroup_dir;
    container.budget = target_plan.target->max_bytes;
    if (!stop_) {
      migrate_target(target_plan, container);
    }
    report_.containers.push_back(std::move(container));
  }

  for (const auto& destination : picker_.destinations()) {
    if (destination.dropped) {
      report_.dropped_destinations.push_back({destination.node, destination.drop_reason});
    }
  }
  report_.elapsed = syscalls_.now() - start_;
  if (!stop_) {
    stop_ = placed_ >= options_.budget ? StopReason::budget_met : StopReason::completed;
  }
  report_.stop_reason = *stop_;
  Bytes achieved = options_.dry_run ? std::min(report_.bytes_on_source(), report_.goal) : placed_;
  report_.threshold_met =
      report_.goal > 0 &&
      static_cast<double>(achieved) >= options_.threshold * static_cast<double>(report_.goal);
  return std::move(report_);
}

void Job::migrate_target(const TargetPlan& target_plan, ContainerReport& container) {
  auto started = syscalls_.now();
  target_placed_ = 0;
  container_id_ = target_plan.target->container_id;
  for (const auto& process : target_plan.processes) {
    if (should_stop() || remaining(target_plan) <= 0) {
      break;
    }
    ProcessReport process_report;
    process_report.pid = process.pid;
    migrate_process(target_plan, process, container, process_report);
    container.processes.push_back(std::move(process_report));
  }
  container.elapsed = syscalls_.now() - started;
}

void Job::migrate_process(const TargetPlan& target_plan, const ProcessPlan& process,
                          ContainerReport&, ProcessReport& report) {
  auto started = syscalls_.now();
  pid_ = process.pid;
  pending_.clear();
  refused_.clear();
  process_done_ = false;
  std::vector<Vma> vmas = process.vmas;

  if (!try_fast_path(target_plan, process, vmas, report) && !process_done_) {
    for (const auto& vma : vmas) {
      if (vma.pages_on(options_.source_node) <= 0 || vma.end <= vma.start) {
        continue;
      }
      if (!walk_vma(target_plan, vma, report)) {
        break;
      }
    }
    if (!process_done_ && !should_stop()) {
      move_pending(target_plan, report, true);
    }
  }
  if (report.vanished) {
    report_.vanished_pids.push_back(process.pid);
  }
  report.elapsed = syscalls_.now() - started;
}

bool Job::try_fast_path(const TargetPlan& target_plan, const ProcessPlan& process,
                        std::vector<Vma>& vmas, ProcessReport& report) {
  NodeId source = options_.source_node;
  Bytes footprint = bytes_on_node(vmas, source);
  // migrate_pages moves shared pages too whenever we hold CAP_SYS_NICE, whatever the flags, so
  // it is only a faithful shortcut when nothing shared sits on the source or sharing is allowed.
  if (options_.dry_run || footprint <= 0 || footprint > options_.fast_path_max_bytes ||
      footprint > remaining(target_plan) || contains(target_plan.target->dest_nodes, source) ||
      (!options_.move_shared && has_shared_pages_on(vmas, source)) || should_stop()) {
    return false;
  }
  refresh_destinations(true);
  auto pick = picker_.pick(excluded_for(target_plan));
  if (!pick || pick->allowance < footprint) {
    return false;
  }
  if (!wait_for_tokens(footprint)) {
    return true;
  }
  auto before = syscalls_.now();
  SyscallResult result = syscalls_.migrate_pages(process.pid, source, pick->node);
  record_call(syscalls_.now() - before, report);
  if (!result.ok()) {
    if (exited(process.pid, result.error)) {
      report.vanished = true;
      process_done_ = true;
      return true;
    }
    add_error(result.error, "migrate_pages " + std::to_string(process.pid), process.pid);
    if (result.error == EPERM) {
      process_done_ = true;
      return true;
    }
    return false;  // the walk may still manage page by page
  }
  auto after = read_process_vmas(proc_root_, process.pid);
  if (!after.ok()) {
    // The process exited right after the move: what left the source is what the call moved.
    report.vanished = after.error().vanished();
    report.bytes_on_source = footprint;
    record_moved(pick->node, footprint, footprint / kBasePageBytes, report);
    report.fast_path = true;
    process_done_ = true;
    return true;
  }
  Bytes left = bytes_on_node(*after, source);
  Bytes moved = std::max<Bytes>(0, footprint - left);
  report.bytes_on_source = footprint;
  report.fast_path = true;
  record_moved(pick->node, moved, moved / kBasePageBytes, report);
  report_progress();
  if (left <= 0 || result.rc == 0) {
    return true;
  }
  // Pages the kernel could not move (pinned, shared): let the walk count what happens to them.
  report.bytes_on_source -= left;
  vmas = std::move(*after);
  return false;
}

bool Job::walk_vma(const TargetPlan& target_plan, const Vma& vma, ProcessReport& report) {
  NodeId source = options_.source_node;
  std::int64_t per_page = std::max<Bytes>(vma.page_size, kBasePageBytes) / kBasePageBytes;
  std::int64_t expected = vma.pages_on(source) * per_page;
  std::int64_t found = 0;

  std::vector<std::uintptr_t> addresses;
  std::vector<std::int64_t> sizes;
  std::vector<int> status;
  std::size_t visited = 0;
  // `count` pages found on the source, `stride` bytes apart from `address`.
  auto on_source = [&](std::uintptr_t address, std::size_t count, std::uintptr_t stride,
                       std::int64_t base_pages) {
    pending_.push_run(address, count, stride, base_pages);
    found += static_cast<std::int64_t>(count) * base_pages;
    report.bytes_on_source += static_cast<Bytes>(count) * base_pages * kBasePageBytes;
  };
  // Asks move_pages where the pages of unknown node are, then moves what is waiting.
  auto settle = [&]() -> bool {
    visited = 0;
    if (!addresses.empty()) {
      status.assign(addresses.size(), kUntouched);
      auto before = syscalls_.now();
      SyscallResult result = syscalls_.move_pages(pid_, addresses, {}, status, false);
      record_call(syscalls_.now() - before, report);
      if (!result.ok()) {
        if (exited(pid_, result.error)) {
          report.vanished = true;
        } else {
          add_error(result.error, "move_pages (query) " + std::to_string(pid_), pid_);
        }
        process_done_ = true;
        return false;
      }
      for (std::size_t i = 0; i < addresses.size(); ++i) {
        ++report.pages_scanned;
        if (status[i] == source) {
          on_source(addresses[i], 1, 0, sizes[i]);
        }
      }
      addresses.clear();
      sizes.clear();
    }
    return move_pending(target_plan, report, false);
  };

  // The page map is read a window at a time, so that once numa_maps' count of pages on the source
  // is found, the rest of a large sparse VMA is neither read nor asked about. Each window is twice
  // the last, so a VMA of terabytes (sanitizer shadow, reserved heaps) still takes a few dozen
  // reads. Windows end on huge-page boundaries: a transparent huge page never straddles two.
  std::uintptr_t span = kFirstResidentWindow;
  for (std::uintptr_t window = vma.start; window < vma.end;) {
    std::uintptr_t window_end = vma.end;
    if (vma.end - window > span) {
      window_end = window + span;
      window_end -= window_end % static_cast<std::uintptr_t>(kPmdBytes);
    }
    if (span < (std::uintptr_t{1} << 62)) {
      span *= 2;
    }
    auto resident = syscalls_.resident_ranges(pid_, window, window_end);
    std::vector<ResidentRange> ranges;
    if (resident.ok()) {
      ranges = std::move(*resident);
    } else if (resident.error().vanished()) {
      report.vanished = true;
      return false;
    } else {
      // Without the page map every page of the window is asked about: slower, never wrong.
      ranges.push_back({window, window_end, false, false, std::nullopt});
    }
    for (const auto& range : ranges) {
      Bytes step = vma.hugetlb ? vma.page_size : (range.huge ? kPmdBytes : kBasePageBytes);
      std::uintptr_t first = range.start - range.start % static_cast<std::uintptr_t>(step);
      first = std::max(first, window);
      // A page of this process alone whose frame the page map placed needs no query. Shared
      // pages and the zero page are still asked about: move_pages tells which it can move.
      bool node_known = range.node.has_value() && !range.maybe_shared;
      auto stride = static_cast<std::uintptr_t>(step);
      std::int64_t base_pages = step / kBasePageBytes;
      // A chunk at a time, up to the next query: a placed range's pages are counted in one go.
      for (std::uintptr_t address = first; address < range.end;) {
        std::size_t take = std::min<std::size_t>((range.end - address + stride - 1) / stride,
                                                 kQueryChunk - visited);
        if (!node_known) {
          for (std::size_t k = 0; k < take; ++k) {
            addresses.push_back(address + k * stride);
            sizes.push_back(base_pages);
          }
        } else {
          report.pages_scanned += static_cast<std::int64_t>(take);
          if (*range.node == source) {
            on_source(address, take, stride, base_pages);
          }
        }
        address += take * stride;
        visited += take;
        if (visited == kQueryChunk) {
          if (!settle() || process_done_) {
            return false;
          }
          // numa_maps said how many pages sit on the source: once found, the rest of a sparse
          // VMA need not be asked about.
          if (found >= expected) {
            return true;
          }
        }
      }
    }
    if (!settle() || process_done_) {
      return false;
    }
    if (found >= expected) {
      return true;
    }
    window = window_end;
  }
  return true;
}

// Moves pending pages in batches while a full batch is waiting (or everything when flushing).
// False when the process or the job is done.
bool Job::move_pending(const TargetPlan& target_plan, ProcessReport& report, bool flush) {
  while (!pending_.empty()) {
    if (!flush && pending_.base_pages() < sizer_.pages()) {
      return true;
    }
    if (should_stop() || remaining(target_plan) <= 0) {
      pending_.clear();
      return false;
    }
    if (options_.dry_run) {
      // Nothing moves; what was found counts against the budget so the walk stops where a real
      // run would.
      Bytes found = pending_.base_pages() * kBasePageBytes;
      target_placed_ += found;
      placed_ += found;
      pending_.clear();
      return remaining(target_plan) > 0;
    }
    if (!move_batch(target_plan, report)) {
      return false;
    }
  }
  return true;
}

bool Job::move_batch(const TargetPlan& target_plan, ProcessReport& report) {
  refresh_destinations();
  auto excluded = excluded_for(target_plan);
  auto pick = picker_.pick(excluded);
  if (!pick) {
    bool any_left = std::any_of(picker_.destinations().begin(), picker_.destinations().end(),
                                [](const Destination& d) { return !d.dropped; });
    if (!any_left) {
      stop_ = StopReason::no_destination;
    }
    pending_.clear();
    process_done_ = true;
    return false;
  }
  NodeId dest = pick->node;

  // Take entries up to the batch size, the budget and what the destination may still take; a
  // huge page may overshoot the budget, never the destination's floor.
  Bytes budget_left = remaining(target_plan);
  auto waiting = pending_.front(
      std::min(pending_.size(), static_cast<std::size_t>(BatchSizer::kMaxAddresses)));
  std::size_t count = 0;
  std::int64_t base_pages = 0;
  Bytes bytes = 0;
  for (const PageEntry& next : waiting) {
    if (count > 0 && (base_pages + next.base_pages > sizer_.pages() ||
                      bytes + next.bytes() > pick->allowance || bytes >= budget_left)) {
      break;
    }
    if (count == 0 && next.bytes() > pick->allowance) {
      picker_.drop(dest, "free memory too close to its floor for the next page");
      return true;
    }
    if (bytes >= budget_left) {
      break;
    }
    ++count;
    base_pages += next.base_pages;
    bytes += next.bytes();
  }
  if (count == 0) {
    return false;
  }
  if (!wait_for_tokens(bytes)) {
    pending_.clear();
    return false;
  }
  auto batch = waiting.first(count);

  auto& addresses = batch_.addresses;
  addresses.clear();
  for (const auto& entry : batch) {
    addresses.push_back(entry.address);
  }
  auto& nodes = batch_.nodes;
  nodes.assign(batch.size(), dest);
  auto& status = batch_.status;
  status.assign(batch.size(), kUntouched);
  SyscallResult result = timed_move(pid_, addresses, nodes, status, report, base_pages);
  if (result.ok() && result.rc > 0) {
    confirm_moved(addresses, status, report);
  }

  std::vector<PageEntry> busy;
  std::vector<PageEntry> retry;
  classify(batch, status, dest, target_plan, report, busy, retry);
  pending_.pop_front(count);  // `batch` points into the queue: not used past here
  if (!result.ok() && exited(pid_, result.error)) {
    report.vanished = true;
    process_done_ = true;
    pending_.clear();
    return false;
  }
  if (!result.ok()) {
    switch (result.error) {
      case ENOMEM:
        picker_.drop(dest, "move_pages answered ENOMEM");
        break;
      case ENODEV:
        picker_.drop(dest, "move_pages answered ENODEV");
        break;
      case EACCES:
        refused_.push_back(dest);
        add_error(EACCES,
                  "move_pages " + std::to_string(pid_) + ": node " + std::to_string(dest) +
                      " is outside the process's cpuset",
                  pid_);
        break;
      default:
        add_error(result.error, "move_pages " + std::to_string(pid_), pid_);
        process_done_ = true;
        pending_.clear();
        return false;
    }
  }
  retry_busy(busy, dest, target_plan, report);
  // Untouched entries and pages refused for lack of memory get one more chance elsewhere.
  for (auto it = retry.rbegin(); it != retry.rend(); ++it) {
    pending_.push_front(*it);
  }
  report_progress();
  return !should_stop();
}

// A positive return counts pages the kernel failed to migrate, yet their status entries already
// name the destination; asking again tells which ones really moved.
void Job::confirm_moved(std::span<const std::uintptr_t> addresses, std::span<int> status,
                        ProcessReport& report) {
  NodeId source = options_.source_node;
  std::vector<int> now_on(addresses.size(), kUntouched);
  auto before = syscalls_.now();
  SyscallResult queried = syscalls_.move_pages(pid_, addresses, {}, now_on, false);
  record_call(syscalls_.now() - before, report);
  if (!queried.ok()) {
    return;
  }
  for (std::size_t i = 0; i < status.size(); ++i) {
    if (status[i] >= 0 && status[i] != source && now_on[i] == source) {
      status[i] = -EBUSY;
    }
  }
}

void Job::classify(std::span<const PageEntry> entries, std::span<const int> status, NodeId dest,
                   const TargetPlan& target_plan, ProcessReport& report,
                   std::vector<PageEntry>& busy, std::vector<PageEntry>& retry) {
  NodeId source = options_.source_node;
  const auto& allowed = target_plan.target->dest_nodes;
  for (std::size_t i = 0; i < entries.size();) {
    const PageEntry& entry = entries[i];
    int value = status[i];
    if (value >= 0) {
      // A batch's pages mostly share one outcome: count each run of equal nodes at once.
      std::size_t first = i;
      Bytes bytes = 0;
      std::int64_t pages = 0;
      for (; i < entries.size() && status[i] == value; ++i) {
        bytes += entries[i].bytes();
        pages += entries[i].base_pages;
      }
      if (value == source && contains(allowed, source)) {
        record_already(bytes, pages, report);
      } else if (value != source && contains(allowed, value)) {
        record_moved(value, bytes, pages, report);
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
void Job::retry_busy(std::vector<PageEntry>& busy, NodeId dest, const TargetPlan& target_plan,
                     ProcessReport& report) {
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
  SyscallResult queried = syscalls_.move_pages(pid_, addresses, {}, status, false);
  record_call(syscalls_.now() - before, report);
  if (!queried.ok()) {
    report.outcomes.busy += static_cast<std::int64_t>(busy.size());
    return;
  }
  const auto& allowed = target_plan.target->dest_nodes;
  std::vector<PageEntry> again;
  for (std::size_t i = 0; i < busy.size(); ++i) {
    if (status[i] >= 0 && status[i] != source && contains(allowed, status[i])) {
      record_moved(status[i], busy[i].bytes(), busy[i].base_pages, report);
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
  SyscallResult moved = timed_move(pid_, addresses, nodes, status, report, base_pages);
  if (moved.ok() && moved.rc > 0) {
    confirm_moved(addresses, status, report);
  }
  if (!moved.ok() && exited(pid_, moved.error)) {
    report.vanished = true;
    process_done_ = true;
  }
  std::vector<PageEntry> still_busy;
  std::vector<PageEntry> unused_retry;
  classify(again, status, dest, target_plan, report, still_busy, unused_retry);
  report.outcomes.busy += static_cast<std::int64_t>(still_busy.size() + unused_retry.size());
}

SyscallResult Job::timed_move(int pid, std::span<const std::uintptr_t> pages,
                              std::span<const int> nodes, std::span<int> status,
                              ProcessReport& report, std::int64_t base_pages) {
  auto before = syscalls_.now();
  SyscallResult result = syscalls_.move_pages(pid, pages, nodes, status, options_.move_shared);
  auto took = syscalls_.now() - before;
  record_call(took, report);
  sizer_.record(base_pages, took);
  return result;
}

void Job::record_call(Clock::duration took, ProcessReport& report) {
  ++report.syscalls;
  report.longest_call =
      std::max(report.longest_call, std::chrono::duration_cast<Nanoseconds>(took));
}

void Job::record_moved(NodeId node, Bytes bytes, std::int64_t pages, ProcessReport& report) {
  if (bytes <= 0) {
    return;
  }
  report.bytes_moved_to[node] += bytes;
  report.outcomes.moved += pages;
  picker_.record_moved(node, bytes);
  moved_ += bytes;
  placed_ += bytes;
  target_placed_ += bytes;
}

void Job::record_already(Bytes bytes, std::int64_t pages, ProcessReport& report) {
  report.bytes_already_on_destination += bytes;
  report.outcomes.already_on_destination += pages;
  placed_ += bytes;
  target_placed_ += bytes;
}

void Job::add_error(int code, std::string message, std::optional<int> pid) {
  ReportError error;
  error.pid = pid;
  error.container_id = container_id_;
  error.code = code;
  error.message = std::move(message);
  error.hint = hint_for(code);
  report_.errors.push_back(std::move(error));
}

// The batch's bytes are paid before it moves, so even the last batch of a job keeps the rate.
// ESRCH once the process is reaped; EINVAL from the moment its mm is released, first while it
// is still exiting (PF_EXITING in its stat flags), then as a zombie.
bool Job::exited(int pid, int error) const {
  if (error == ESRCH) {
    return true;
  }
  std::ifstream stat(proc_root_ / std::to_string(pid) / "stat");
  std::string text;
  if (!stat || !std::getline(stat, text)) {
    return true;
  }
  auto close = text.rfind(')');
  if (close == std::string::npos) {
    return false;
  }
  // After the command name: state ppid pgrp session tty_nr tpgid flags ...
  std::istringstream fields(text.substr(close + 1));
  char state = 0;
  long skipped = 0;
  unsigned long flags = 0;
  fields >> state >> skipped >> skipped >> skipped >> skipped >> skipped >> flags;
  constexpr unsigned long kProcessExiting = 0x4;  // PF_EXITING
  return state == 'Z' || state == 'X' || (fields && (flags & kProcessExiting) != 0);
}

bool Job::wait_for_tokens(Bytes bytes) {
  if (should_stop()) {
    return false;
  }
  bucket_.take(bytes, syscalls_.now());
  for (;;) {
    auto delay = bucket_.delay(syscalls_.now());
    if (delay <= Clock::duration::zero()) {
      return true;
    }
    syscalls_.sleep_for(std::min(delay, kLongestWait));
    if (should_stop()) {
      return false;
    }
  }
}

// Free memory is re-read every kRefreshInterval, and before every batch once a destination is
// within a few batches of its floor; in between the picker counts down what this job moved there.
// The job's start and the fast path, which hands a whole footprint over at once, always read it.
// Reading it costs a sysfs read per destination, which at one per batch was a visible share of a
// job on an emulated machine.
void Job::refresh_destinations(bool now_required) {
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

bool Job::should_stop() {
  if (stop_) {
    return true;
  }
  if (cancel_.load(std::memory_order_relaxed)) {
    stop_ = StopReason::cancelled;
  } else if (syscalls_.now() >= deadline_at_) {
    stop_ = StopReason::deadline;
  } else if (placed_ >= options_.budget) {
    stop_ = StopReason::budget_met;
  }
  return stop_.has_value();
}

Bytes Job::remaining(const TargetPlan& target_plan) const {
  return std::min(options_.budget - placed_, target_plan.cap - target_placed_);
}

std::vector<NodeId> Job::excluded_for(const TargetPlan& target_plan) const {
  std::vector<NodeId> excluded = refused_;
  for (const auto& destination : picker_.destinations()) {
    if (!contains(target_plan.target->dest_nodes, destination.node)) {
      excluded.push_back(destination.node);
    }
  }
  return excluded;
}

void Job::report_progress() {
  if (!on_progress_) {
    return;
  }
  JobProgress progress;
  progress.moved = moved_;
  progress.placed = placed_;
  progress.goal = report_.goal;
  progress.elapsed = syscalls_.now() - start_;
  double seconds = std::chrono::duration<double>(progress.elapsed).count();
  progress.rate_mib_per_s =
      seconds > 0 ? static_cast<double>(moved_) / static_cast<double>(kMiB) / seconds : 0;
  progress.container_id = container_id_;
  progress.pid = pid_;
  on_progress_(progress);
}

}  // namespace

MigrationReport run_migration(const std::vector<MigrationTarget>& targets,
                              const JobOptions& options, MemorySyscalls& syscalls,
                              const std::filesystem::path& proc_root,
                              const std::atomic<bool>& cancel,
                              const std::function<void(const JobProgress&)>& on_progress) {
  Job job(targets, options, syscalls, proc_root, cancel, on_progress);
  return job.run();
}

}  // namespace nb::actuator
