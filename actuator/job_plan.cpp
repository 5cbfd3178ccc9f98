#include "actuator/job_plan.hpp"

#include <algorithm>
#include <set>

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

}  // namespace

Bytes JobPlan::on_source() const {
  Bytes total = 0;
  for (const auto& target_plan : targets) {
    total += std::min(target_plan.on_source, target_plan.cap);
  }
  return total;
}

JobPlan plan_job(const std::vector<MigrationTarget>& targets, NodeId source_node,
                 const std::filesystem::path& proc_root) {
  JobPlan plan;
  std::set<int> seen;
  for (const auto& target : targets) {
    TargetPlan target_plan;
    target_plan.target = &target;
    target_plan.cap = target.max_bytes.value_or(kUnlimitedBudget);
    for (int pid : target_pids(target, plan)) {
      if (!seen.insert(pid).second) {
        continue;  // a process listed by two targets moves with the first
      }
      auto vmas = read_process_vmas(proc_root, pid);
      if (!vmas.ok()) {
        if (vmas.error().vanished()) {
          plan.vanished_pids.push_back(pid);
        } else {
          plan.errors.push_back(plan_error(vmas.error(), target, pid));
        }
        continue;
      }
      target_plan.on_source += bytes_on_node(*vmas, source_node);
      target_plan.processes.push_back({pid, std::move(*vmas)});
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
