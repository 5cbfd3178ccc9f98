#include "actuator/damon_monitor.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <utility>

namespace nb::actuator {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

constexpr int kAggregationsPerWindow = 20;
constexpr int kSamplesPerAggregation = 20;
constexpr microseconds kShortestAggregation = milliseconds(5);
constexpr microseconds kShortestSample = milliseconds(1);
constexpr int kAggregationsPerUpdate = 4;
// DAMON splits and merges regions within these; its own defaults, written out so that a host
// tool's changes to them never reach our kdamonds.
constexpr int kMinRegions = 10;
constexpr int kMaxRegions = 1000;
// The longest single sleep of the window, so that cancel stays prompt.
constexpr Clock::duration kCancelCheck = milliseconds(50);

std::string number(std::uint64_t value) {
  return std::to_string(value);
}

}  // namespace

DamonIntervals damon_intervals(Duration window) {
  DamonIntervals intervals;
  intervals.aggregation =
      std::max(microseconds(window) / kAggregationsPerWindow, kShortestAggregation);
  intervals.sample = std::clamp(intervals.aggregation / kSamplesPerAggregation, kShortestSample,
                                intervals.aggregation);
  intervals.update = intervals.aggregation * kAggregationsPerUpdate;
  return intervals;
}

DamonMonitor::DamonMonitor(DamonSysfs& sysfs, MemorySyscalls& clock,
                           std::filesystem::path proc_root, int own_pid)
    : sysfs_(sysfs), clock_(clock), proc_root_(std::move(proc_root)), own_pid_(own_pid) {}

DamonWatch DamonMonitor::watch(const std::vector<int>& pids, Duration window,
                               const std::atomic<bool>& cancel) {
  DamonWatch watch;
  auto started = clock_.now();
  {
    KdamondSession session(sysfs_, own_pid_);
    run(session, pids, window, cancel, watch);
    watch.cleanup_failure = session.finish();
  }
  watch.cost = clock_.now() - started;
  return watch;
}

void DamonMonitor::run(KdamondSession& session, const std::vector<int>& pids, Duration window,
                       const std::atomic<bool>& cancel, DamonWatch& watch) {
  if (!sysfs_.exists("kdamonds/nr_kdamonds")) {
    watch.failure = make_error(0, "DAMON is not available: " + sysfs_.describe("") +
                                      " does not exist (no CONFIG_DAMON_SYSFS, or sysfs is not "
                                      "mounted there)");
    return;
  }
  if (auto claimed = claim_list(); !claimed) {
    watch.failure = claimed.error();
    return;
  }
  std::size_t count = std::min(pids.size(), kMaxProcesses);
  if (auto created = session.create(count); !created) {
    watch.failure = created.error();
    return;
  }
  auto intervals = damon_intervals(window);
  for (std::size_t i = 0; i < count; ++i) {
    if (auto configured = configure(i, pids[i], intervals); !configured) {
      watch.failure = configured.error();
      return;
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (auto on = sysfs_.write(kdamond_path(i, "state"), "on"); !on) {
      watch.failure = on.error();
      return;
    }
  }
  if (!wait(window, cancel)) {
    watch.cancelled = true;
    watch.failure = make_error(0, "cancelled during the hotness window");
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    auto regions = collect(i);
    if (regions) {
      watch.regions[pids[i]] = std::move(*regions);
    } else if (!watch.failure) {
      // Its kdamond stops by itself once the process exits; the others' regions still count.
      watch.failure = make_error(regions.error().code, "process " + std::to_string(pids[i]) + ": " +
                                                           regions.error().context);
    }
  }
}

// The list must be empty; a dead numabalancer's kdamonds in it are removed first.
Status DamonMonitor::claim_list() {
  auto stale = remove_stale_kdamonds(sysfs_, proc_root_, own_pid_);
  if (!stale) {
    return stale.error();
  }
  if (!stale->left_alone.empty()) {
    return make_error(0, "DAMON is busy: " + stale->left_alone);
  }
  return Ok{};
}

Status DamonMonitor::configure(std::size_t index, int pid, const DamonIntervals& intervals) {
  std::string context = kdamond_path(index, "contexts/0/");
  std::string scheme = context + "schemes/0/";
  // A stat scheme is tried on (and so lists) only the regions inside its access pattern, whose
  // maxima start at 0: each is raised to the largest value the kernel keeps for it.
  std::uint64_t largest_count = std::numeric_limits<unsigned>::max();
  std::uint64_t largest_size = std::numeric_limits<unsigned long>::max();
  const std::pair<std::string, std::string> writes[] = {
      {kdamond_path(index, "contexts/nr_contexts"), "1"},
      {context + "operations", "vaddr"},
      {context + "monitoring_attrs/intervals/sample_us", number(intervals.sample.count())},
      {context + "monitoring_attrs/intervals/aggr_us", number(intervals.aggregation.count())},
      {context + "monitoring_attrs/intervals/update_us", number(intervals.update.count())},
      {context + "monitoring_attrs/nr_regions/min", number(kMinRegions)},
      {context + "monitoring_attrs/nr_regions/max", number(kMaxRegions)},
      {context + "targets/nr_targets", "1"},
      {context + "targets/0/pid_target", std::to_string(pid)},
      {context + "schemes/nr_schemes", "1"},
      {kdamond_mark_path(index), number(kdamond_mark(own_pid_))},
      {scheme + "action", "stat"},
      {scheme + "access_pattern/sz/max", number(largest_size)},
      {scheme + "access_pattern/nr_accesses/max", number(largest_count)},
      {scheme + "access_pattern/age/max", number(largest_count)},
  };
  for (const auto& [path, value] : writes) {
    if (auto written = sysfs_.write(path, value); !written) {
      return written.error();
    }
  }
  return Ok{};
}

bool DamonMonitor::wait(Duration window, const std::atomic<bool>& cancel) {
  auto until = clock_.now() + window;
  for (auto now = clock_.now(); now < until; now = clock_.now()) {
    if (cancel.load()) {
      return false;
    }
    clock_.sleep_for(std::min<Clock::duration>(until - now, kCancelCheck));
  }
  return !cancel.load();
}

// Asks the kdamond to fill its scheme's tried_regions (the write returns once it has), then
// reads them: tried_regions/0, 1, ... up to the first missing one.
Result<std::vector<DamonRegion>> DamonMonitor::collect(std::size_t index) {
  if (auto updated = sysfs_.write(kdamond_path(index, "state"), "update_schemes_tried_regions");
      !updated) {
    return updated.error();
  }
  std::string dir = kdamond_path(index, "contexts/0/schemes/0/tried_regions/");
  std::vector<DamonRegion> regions;
  for (std::size_t i = 0; sysfs_.exists(dir + std::to_string(i)); ++i) {
    auto region = read_region(dir + std::to_string(i) + "/");
    if (!region) {
      return region.error();
    }
    regions.push_back(*region);
  }
  return regions;
}

Result<DamonRegion> DamonMonitor::read_region(const std::string& dir) {
  constexpr std::array<const char*, 4> kFiles = {"start", "end", "nr_accesses", "age"};
  std::array<std::uint64_t, 4> values{};
  for (std::size_t i = 0; i < kFiles.size(); ++i) {
    auto value = read_number(sysfs_, dir + kFiles[i]);
    if (!value) {
      return value.error();
    }
    values[i] = *value;
  }
  return DamonRegion{static_cast<std::uintptr_t>(values[0]), static_cast<std::uintptr_t>(values[1]),
                     values[2], values[3]};
}

}  // namespace nb::actuator
