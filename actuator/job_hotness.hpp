#pragma once
// A job's page order, settled once its plan is read and before anything moves. For hot_first
// (asked for, or auto), DAMON watches the processes the walk will take for the hotness window
// and ranks their regions; the processes it could not watch, and every process when DAMON is
// absent, busy or fails, go in address order, and the report says why. Processes the fast path
// will likely move whole (one migrate_pages call, which has no order) are not watched.

#include <atomic>
#include <filesystem>
#include <map>
#include <vector>

#include "actuator/damon_monitor.hpp"
#include "actuator/damon_sysfs.hpp"
#include "actuator/job_options.hpp"
#include "actuator/job_plan.hpp"
#include "actuator/memory_syscalls.hpp"
#include "actuator/migration_report.hpp"

namespace nb::actuator {

class JobHotness {
 public:
  // The regions of `pid` when it goes hot first, else null.
  const std::vector<DamonRegion>* regions_of(int pid) const;

  std::map<int, std::vector<DamonRegion>> regions;
};

// Fills the report's page order, fallback and DAMON's cost (and an error when DAMON's kdamonds
// could not be removed). `damon` null means no DAMON interface: address order.
JobHotness survey_hotness(const JobPlan& plan, const JobOptions& options, DamonSysfs* damon,
                          MemorySyscalls& syscalls, const std::filesystem::path& proc_root,
                          const std::atomic<bool>& cancel, MigrationReport& report);

}  // namespace nb::actuator
