#pragma once
// A job's plan, read once when it starts: each target's processes and their VMAs, and how much
// of them sits on the source node. A process listed by two targets belongs to the first. Each
// process is pinned (a pidfd, its start time, its cgroup) when its pid is read; one that exits or
// leaves its target's cgroup before its VMAs are read is counted as vanished, not as an error.

#include <atomic>
#include <filesystem>
#include <vector>

#include "actuator/job_options.hpp"
#include "actuator/memory_syscalls.hpp"
#include "actuator/migration_report.hpp"
#include "actuator/numa_maps.hpp"
#include "actuator/pinned_process.hpp"

namespace nb::actuator {

struct ProcessPlan {
  int pid = 0;
  std::vector<Vma> vmas;
  PinnedProcess pinned;  // what the job checks before and after every call on pid
};

struct TargetPlan {
  const MigrationTarget* target = nullptr;
  std::vector<ProcessPlan> processes;
  Bytes on_source = 0;
  Bytes cap = kUnlimitedBudget;

  // Whether the target's pages may go to (or stay on) `node`.
  bool allows(NodeId node) const;
};

struct JobPlan {
  std::vector<TargetPlan> targets;  // one per target, in the targets' order
  std::vector<ReportError> errors;  // cgroups and processes that could not be read
  std::vector<int> vanished_pids;

  // What the job could place: each target's bytes on the source, up to its cap.
  Bytes on_source() const;
};

// `targets` must outlive the plan, which points into it. Planning stops at the next process once
// `cancel` is set (a cgroup of thousands of processes takes a while to read, and a stop must not
// wait for it); the job then ends as cancelled.
JobPlan plan_job(const std::vector<MigrationTarget>& targets, NodeId source_node,
                 MemorySyscalls& syscalls, const std::filesystem::path& proc_root,
                 const std::atomic<bool>* cancel = nullptr);

// Every target's destinations, each once, in the order they first appear.
std::vector<NodeId> all_destinations(const std::vector<MigrationTarget>& targets);

}  // namespace nb::actuator
