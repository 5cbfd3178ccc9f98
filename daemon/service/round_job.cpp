#include "daemon/service/round_job.hpp"

#include <set>

#include "daemon/wire/round_line.hpp"

namespace nb::service {

void leave_evicted_out(core::Decision& decision, const config::EvictionConfig& eviction) {
  if (eviction.action == "none" || decision.evict.empty()) {
    return;
  }
  std::set<std::string> evicting;
  for (const auto& candidate : decision.evict) {
    evicting.insert(candidate.id);
  }
  std::vector<core::ContainerMove> kept;
  Bytes total = 0;
  for (auto& move : decision.migrate) {
    if (evicting.count(move.id) != 0) {
      decision.explanation.push_back("plan: " + move.id + " is evicted (" + eviction.action +
                                     "), not migrated");
      continue;
    }
    total += move.bytes_on_source;
    kept.push_back(std::move(move));
  }
  if (kept.size() != decision.migrate.size()) {
    decision.migrate = std::move(kept);
    decision.total_bytes = total;
  }
}

RoundJobPlan plan_round_job(
    const core::Decision& decision, const config::EvictionConfig& eviction,
    const std::function<std::filesystem::path(std::string_view)>& container_dir, bool cgroup_v2) {
  RoundJobPlan plan;
  std::set<std::string> evicting;
  if (eviction.action != "none") {
    for (const auto& candidate : decision.evict) {
      plan.evictions.push_back(eviction::EvictionRequest{candidate.id, container_dir(candidate.id),
                                                         cgroup_v2, *decision.source_node,
                                                         decision.reason});
      evicting.insert(candidate.id);
    }
  }
  for (const auto& move : decision.migrate) {
    if (evicting.count(move.id) != 0) {
      continue;  // an evicted container is left out of this round's migration
    }
    plan.targets.push_back(actuator::MigrationTarget{move.id, container_dir(move.id), std::nullopt,
                                                     move.dest_nodes, move.bytes_on_source});
    plan.budget += move.bytes_on_source;
  }
  return plan;
}

void record_decision(rounds::RoundRecord& record, const core::Decision& decision,
                     const std::string& note) {
  record.status = rounds::round_status(decision.status);
  record.reason = decision.reason + note;
  record.source_node = decision.source_node;
  record.dest_nodes = decision.dest_nodes;
  record.planned_bytes = decision.total_bytes;
  for (const auto& move : decision.migrate) {
    record.containers.push_back(move.id);
  }
}

bool has_work(const core::Decision& decision) {
  return decision.status == core::DecisionStatus::ready && decision.source_node.has_value() &&
         (!decision.migrate.empty() || !decision.evict.empty());
}

std::optional<rounds::RoundOutcome> outcome_without_job(const core::Decision& decision, bool paused,
                                                        bool dry_run, bool job_running) {
  if (decision.status == core::DecisionStatus::failed) {
    return rounds::RoundOutcome::failed;
  }
  if (!has_work(decision)) {
    return rounds::RoundOutcome::none;
  }
  if (paused) {
    return rounds::RoundOutcome::paused;
  }
  if (dry_run) {
    return rounds::RoundOutcome::dry_run;
  }
  if (job_running) {
    return rounds::RoundOutcome::deferred;  // one job at a time
  }
  return std::nullopt;
}

Status policy_failure(const core::Decision& decision) {
  if (decision.status == core::DecisionStatus::failed) {
    return make_error(0, decision.reason);
  }
  return Ok{};
}

rounds::RoundRecord manual_round(std::uint64_t number, TimePoint time,
                                 const actuator::MigrationTarget& target,
                                 const actuator::JobOptions& options) {
  rounds::RoundRecord record;
  record.number = number;
  record.time = time;
  record.trigger = "manual";
  record.status = rounds::RoundStatus::manual;
  record.outcome = rounds::RoundOutcome::started;
  record.source_node = options.source_node;
  record.dest_nodes = target.dest_nodes;
  record.containers = {target.container_id};
  record.planned_bytes = options.budget == actuator::kUnlimitedBudget ? 0 : options.budget;
  return record;
}

std::string status_line(const rounds::RoundRecord& record, bool paused, bool dry_run) {
  const wire::RoundSummary summary{record.number,
                                   record.time,
                                   std::string(rounds::to_string(record.status)),
                                   std::string(rounds::to_string(record.outcome)),
                                   record.source_node,
                                   record.dest_nodes,
                                   record.reason};
  std::string line = wire::round_line(summary, wire::RoundLineStyle::status);
  if (paused) {
    line += " [paused]";
  }
  if (dry_run) {
    line += " [dry-run]";
  }
  return line;
}

}  // namespace nb::service
