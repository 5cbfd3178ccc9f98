#pragma once
// A migration job: moves containers' (or single processes') memory off one node onto ordered
// destinations, within a byte budget, at a bounded rate and with bounded stalls, and reports
// exactly what happened. It runs synchronously; the daemon runs it on its worker thread and
// the CLI on its main thread. Cancel and the deadline are honoured between batches.
//
// The job composes its units: the plan (job_plan), the page order (job_hotness, walk_order), the
// walk that finds pages on the source (page_walk), the mover that moves them in batches
// (page_mover), the pacing (job_pacer) and the accounting (job_ledger).

#include <atomic>
#include <filesystem>
#include <functional>
#include <vector>

#include "actuator/damon_sysfs.hpp"
#include "actuator/job_options.hpp"
#include "actuator/memory_syscalls.hpp"
#include "actuator/migration_report.hpp"

namespace nb::actuator {

// `damon` is DAMON's sysfs interface for the hot-first order; without it (null, or the overload
// without it) pages go in address order.
MigrationReport run_migration(const std::vector<MigrationTarget>& targets,
                              const JobOptions& options, MemorySyscalls& syscalls,
                              DamonSysfs* damon, const std::filesystem::path& proc_root,
                              const std::atomic<bool>& cancel,
                              const std::function<void(const JobProgress&)>& on_progress);
MigrationReport run_migration(const std::vector<MigrationTarget>& targets,
                              const JobOptions& options, MemorySyscalls& syscalls,
                              const std::filesystem::path& proc_root,
                              const std::atomic<bool>& cancel,
                              const std::function<void(const JobProgress&)>& on_progress);

}  // namespace nb::actuator
