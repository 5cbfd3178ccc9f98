#include "daemon/sim/mover.hpp"

#include <algorithm>
#include <limits>

#include "actuator/job_plan.hpp"

namespace nb::sim {

Mover::Mover(HostModel& host, NodeId source, std::vector<actuator::MigrationTarget> targets,
             Bytes budget, const config::ActuatorConfig& settings)
    : host_(host),
      source_(source),
      targets_(std::move(targets)),
      budget_(budget),
      rate_mib_per_s_(settings.rate_limit_mib_per_s),
      deadline_(settings.job_deadline),
      memory_(host),
      picker_(actuator::all_destinations(targets_), settings.min_free_bytes) {}

std::vector<NodeId> Mover::destinations() const {
  return actuator::all_destinations(targets_);
}

actuator::MigrationReport Mover::report(double threshold) const {
  actuator::MigrationReport report;
  report.source_node = source_;
  report.dest_nodes = destinations();
  report.budget = budget_;
  report.goal = budget_;
  report.threshold = threshold;
  report.threshold_met = static_cast<double>(moved_) >= threshold * static_cast<double>(budget_);
  report.stop_reason = moved_ >= budget_       ? actuator::StopReason::budget_met
                       : elapsed_ >= deadline_ ? actuator::StopReason::deadline
                                               : actuator::StopReason::completed;
  report.elapsed = elapsed_;
  // One modelled process a container: the report's unit of what moved where.
  std::map<std::size_t, std::size_t> index;
  for (const auto& [key, bytes] : moved_by_) {
    const auto [container, to] = key;
    auto [at, added] = index.emplace(container, report.containers.size());
    if (added) {
      actuator::ContainerReport moved;
      moved.id = host_.container(container).id;
      moved.processes.emplace_back();
      report.containers.push_back(std::move(moved));
    }
    actuator::ProcessReport& process = report.containers[at->second].processes.front();
    process.bytes_moved_to[host_.node(to).id] += bytes;
  }
  return report;
}

void Mover::next_target() {
  ++target_;
  target_moved_ = 0;
}

std::optional<Batch> Mover::next_batch(Bytes tokens) {
  const std::size_t from = host_.index_of(source_);
  while (target_ < targets_.size() && moved_ < budget_) {
    const actuator::MigrationTarget& target = targets_[target_];
    const std::size_t container = host_.container_index(target.container_id);
    const Bytes cap = target.max_bytes.value_or(std::numeric_limits<Bytes>::max());
    const Bytes left = container == host_.container_count()
                           ? 0
                           : std::min(cap - target_moved_, host_.bytes_on(container, from));
    if (left <= 0) {
      next_target();
      continue;
    }
    // As the real mover: the destinations outside this target's list are excluded.
    std::vector<NodeId> excluded;
    for (const auto& destination : picker_.destinations()) {
      const auto& allowed = target.dest_nodes;
      if (std::find(allowed.begin(), allowed.end(), destination.node) == allowed.end()) {
        excluded.push_back(destination.node);
      }
    }
    auto pick = picker_.pick(excluded);
    if (!pick) {
      next_target();
      continue;
    }
    const Bytes bytes = std::min({kBatchBytes, tokens, left, budget_ - moved_, pick->allowance});
    return Batch{container, from, host_.index_of(pick->node), bytes};
  }
  done_ = true;
  return std::nullopt;
}

void Mover::run_second(const std::function<void(const Batch&)>& on_batch) {
  if (done_) {
    return;
  }
  picker_.refresh(memory_);
  const bool unlimited = rate_mib_per_s_ <= 0;
  Bytes tokens = unlimited ? std::numeric_limits<Bytes>::max()
                           : static_cast<Bytes>(rate_mib_per_s_ * static_cast<double>(kMiB));
  while (tokens > 0) {
    auto batch = next_batch(tokens);
    if (!batch) {
      break;
    }
    host_.move(batch->container, batch->from, batch->to, batch->bytes);
    picker_.record_moved(host_.node(batch->to).id, batch->bytes);
    moved_ += batch->bytes;
    moved_by_[{batch->container, batch->to}] += batch->bytes;
    target_moved_ += batch->bytes;
    tokens -= batch->bytes;
    on_batch(*batch);
  }
  elapsed_ += std::chrono::seconds(1);
  if (elapsed_ >= deadline_) {
    done_ = true;
  }
}

}  // namespace nb::sim
