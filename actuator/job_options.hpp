#pragma once
// What a migration job is asked to do (its targets and options) and what it tells its caller
// while it runs (its progress). The job's units share these; run_migration takes them.

#include <chrono>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "actuator/memory_syscalls.hpp"
#include "actuator/migration_report.hpp"
#include "actuator/page_order.hpp"
#include "base/units.hpp"

namespace nb::actuator {

using namespace std::chrono_literals;

inline constexpr Bytes kUnlimitedBudget = std::numeric_limits<Bytes>::max();

struct MigrationTarget {
  std::string container_id;
  std::filesystem::path cgroup_dir;  // its processes and those of every descendant, or
  std::optional<int> pid;            // a single process
  std::vector<NodeId> dest_nodes;    // in decision order
  std::optional<Bytes> max_bytes;    // this target's share of the plan, if capped
};

struct JobOptions {
  NodeId source_node = 0;
  Bytes budget = kUnlimitedBudget;    // never more than this (plus at most one huge page)
  double threshold = 0.7;             // success: placed >= threshold x min(budget, on source)
  double rate_limit_mib_per_s = 512;  // 0 = unlimited
  Duration call_target = 20ms;
  Duration deadline = 5min;
  bool move_shared = false;  // MPOL_MF_MOVE_ALL
  std::optional<Bytes> min_free_bytes;
  bool dry_run = false;
  // A process whose whole footprint on the source is at most this is handed to migrate_pages
  // in one call (when it also fits the budget and one destination). The kernel then walks it
  // without our per-page queries, but the process stalls for the whole move, so the default
  // keeps that stall about one full batch long. 0 disables the fast path.
  Bytes fast_path_max_bytes = 16 * kMiB;
  // hot_first watches the processes with DAMON for the window before moving them (see
  // job_hotness.hpp); the window counts against the deadline.
  PageOrder page_order = PageOrder::automatic;
  Duration hotness_window = 5s;
};

struct JobProgress {
  Bytes moved = 0;
  Bytes placed = 0;  // moved + found already on a destination
  Bytes goal = 0;    // min(budget, what was on the source when the job started)
  double rate_mib_per_s = 0;
  Nanoseconds elapsed{0};
  std::string container_id;
  int pid = 0;
};

}  // namespace nb::actuator
