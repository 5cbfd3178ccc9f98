#include "actuator/job_plan.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "actuator/process_list.hpp"

namespace nb::actuator {
namespace {

ReportError plan_error(const Error& error, const MigrationTarget& target, std::optional<int> pid) {
  ReportError report_error;
  report_error.pid = pid;
  report_error.container_id = target.container_id;
  report_error.code = error.code;
  report_error.message = error.message();
  report_error.hint = hint_for(error.code);
  return report_error;
}

std::vector<int> target_pids(const MigrationTarget& target, JobPlan& plan) {
  if (target.pid) {
    return {*target.pid};
  }
  auto listed = cgroup_processes(target.cgroup_dir);
  if (!listed.ok()) {
    plan.errors.push_back(plan_error(listed.error(), target, std::nullopt));
    return {};
  }
  return std::move(*listed);
}

// A process pinned, then its VMAs read.
Result<ProcessPlan> plan_process(int pid, const std::optional<CgroupName>& cgroup,
                                 MemorySyscalls& syscalls, const std::filesystem::path& proc_root) {
  auto pinned = PinnedProcess::pin(syscalls, proc_root, pid, cgroup);
  if (!pinned) {
    return pinned.error();
  }
  auto vmas = read_process_vmas(proc_root, pid);
  if (!vmas) {
    return vmas.error();
  }
  // The maps just read are another process's if the pid no longer names the pinned one.
  if (!pinned->still_same()) {
    return make_error(ESRCH, "process " + std::to_string(pid) + " changed while being read");
  }
  return ProcessPlan{pid, std::move(*vmas), std::move(*pinned)};
}

}  // namespace

Bytes JobPlan::on_source() const {
  Bytes total = 0;
  for (const auto& target_plan : targets) {
    total += std::min(target_plan.on_source, target_plan.cap);
  }
  return total;
}

JobPlan plan_job(const std::vector<MigrationTarget>& targets, NodeId source_node,
                 MemorySyscalls& syscalls, const std::filesystem::path& proc_root,
                 const std::atomic<bool>* cancel) {
  JobPlan plan;
  std::set<int> seen;
  for (const auto& target : targets) {
    TargetPlan target_plan;
    target_plan.target = &target;
    target_plan.cap = target.max_bytes.value_or(kUnlimitedBudget);
    auto pids = target_pids(target, plan);
    // A cgroup's processes are checked against it; a single process is the operator's pick,
    // whatever its cgroup.
    std::optional<CgroupName> cgroup;
    if (!target.pid && !pids.empty()) {
      auto name = cgroup_name(target.cgroup_dir);
      if (!name) {
        plan.errors.push_back(plan_error(name.error(), target, std::nullopt));
        pids.clear();
      } else {
        cgroup = std::move(*name);
      }
    }
    for (int pid : pids) {
      if (cancel != nullptr && cancel->load()) {
        break;
      }
      if (!seen.insert(pid).second) {
        continue;  // a process listed by two targets moves with the first
      }
      auto process = plan_process(pid, cgroup, syscalls, proc_root);
      if (!process) {
        if (process.error().vanished()) {
          plan.vanished_pids.push_back(pid);
        } else {
          plan.errors.push_back(plan_error(process.error(), target, pid));
        }
        continue;
      }
      target_plan.on_source += bytes_on_node(process->vmas, source_node);
      target_plan.processes.push_back(std::move(*process));
    }
    plan.targets.push_back(std::move(target_plan));
  }
  return plan;
}

std::vector<NodeId> all_destinations(const std::vector<MigrationTarget>& targets) {
  std::vector<NodeId> nodes;
  for (const auto& target : targets) {
    for (NodeId node : target.dest_nodes) {
      if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) {
        nodes.push_back(node);
      }
    }
  }
  return nodes;
}

bool TargetPlan::allows(NodeId node) const {
  const auto& nodes = target->dest_nodes;
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

}  // namespace nb::actuator
