#include "daemon/service/round_engine.hpp"

#include <algorithm>

#include "core/decide.hpp"
#include "core/round_effect.hpp"

namespace nb::service {

namespace {

core::Decision core_decide(const core::Snapshot& snapshot, const core::PolicyConfig& policy,
                           const core::History& history, TimePoint now) {
  return core::decide(snapshot, policy, history, now, core::DecideOptions{});
}

bool involved(const rounds::RoundRecord& record, NodeId node) {
  return record.source_node == node || std::find(record.dest_nodes.begin(), record.dest_nodes.end(),
                                                 node) != record.dest_nodes.end();
}

// The readings of the round's source and destinations its effect is measured against.
void keep_readings_before(rounds::RoundRecord& record, const core::Snapshot& snapshot) {
  record.latencies_before.clear();
  record.bandwidths_before.clear();
  for (const core::Node& node : snapshot.nodes) {
    if (!involved(record, node.id)) {
      continue;
    }
    if (node.read_latency_ns) {
      record.latencies_before[node.id] = *node.read_latency_ns;
    }
    if (node.bandwidth_gbps) {
      record.bandwidths_before[node.id] = *node.bandwidth_gbps;
    }
  }
}

core::Snapshot snapshot_before(const rounds::RoundRecord& record) {
  core::Snapshot before;
  before.time = record.time;
  for (const auto& [id, ns] : record.latencies_before) {
    core::Node node;
    node.id = id;
    node.read_latency_ns = ns;
    if (auto bandwidth = record.bandwidths_before.find(id);
        bandwidth != record.bandwidths_before.end()) {
      node.bandwidth_gbps = bandwidth->second;
    }
    before.nodes.push_back(std::move(node));
  }
  return before;
}

void measure_effect(rounds::RoundRecord& record, const core::Snapshot& after,
                    const core::PolicyConfig& policy) {
  if (!record.source_node) {
    record.effect_reason = "the round has no source node";
    return;
  }
  const core::RoundMoves moves{*record.source_node, record.dest_nodes, record.planned_bytes,
                               record.moved_bytes};
  auto result = core::measure_effect(moves, snapshot_before(record), after, policy);
  if (auto* effect = std::get_if<core::MeasuredEffect>(&result)) {
    record.effect = *effect;
    record.effect_measured = after.time;
  } else {
    record.effect_reason = std::get<std::string>(result);
  }
}

}  // namespace

RoundEngine::RoundEngine(Seams seams, std::size_t keep) : seams_(std::move(seams)), keep_(keep) {
  if (!seams_.decide) {
    seams_.decide = core_decide;
  }
}

void RoundEngine::restore(std::vector<rounds::RoundRecord> rounds) {
  rounds_.clear();
  history_.clear();
  history_numbers_.clear();
  deferred_.reset();
  for (rounds::RoundRecord& record : rounds) {
    next_number_ = std::max(next_number_, record.number + 1);
    add_to_history(record);
    rounds_.push_back(std::move(record));
  }
  trim();
  rounds::keep_newest_full_reports(rounds_, kFullReportsKept);
}

rounds::RoundRecord RoundEngine::open(TimePoint time, std::string trigger) {
  rounds::RoundRecord record;
  record.number = next_number_++;
  record.time = time;
  record.trigger = std::move(trigger);
  record.status = rounds::RoundStatus::scanning;
  record.outcome = rounds::RoundOutcome::pending;
  return record;
}

DecidedRound RoundEngine::decide(rounds::RoundRecord record, const RoundInputs& inputs) {
  DecidedRound round;
  round.effects = measure_due_effects(inputs.snapshot, inputs.policy);
  round.decision = seams_.decide(inputs.snapshot, inputs.policy, history_, record.time);
  leave_evicted_out(round.decision, inputs.eviction);
  record_decision(record, round.decision, inputs.note ? inputs.note(round.decision) : "");
  if (auto held =
          outcome_without_job(round.decision, inputs.paused, inputs.dry_run, inputs.job_running)) {
    record.outcome = *held;
  } else {
    RoundJobPlan plan =
        plan_round_job(round.decision, inputs.eviction, seams_.container_dir, seams_.cgroup_v2);
    if (plan.targets.empty() && plan.evictions.empty()) {
      record.outcome = rounds::RoundOutcome::reported;
    } else {
      record.outcome = rounds::RoundOutcome::started;
      keep_readings_before(record, inputs.snapshot);
      deferred_.reset();
      round.job = std::move(plan);
    }
  }
  if (record.outcome == rounds::RoundOutcome::deferred) {
    deferred_ = record;  // visible rather than dropped
  }
  if (record.outcome != rounds::RoundOutcome::none) {
    keep(record);
  }
  round.record = std::move(record);
  return round;
}

rounds::RoundRecord RoundEngine::fail(rounds::RoundRecord record, std::string reason) {
  record.status = rounds::RoundStatus::failed;
  record.outcome = rounds::RoundOutcome::failed;
  record.reason = std::move(reason);
  keep(record);
  return record;
}

rounds::RoundRecord RoundEngine::open_manual(TimePoint time,
                                             const actuator::MigrationTarget& target,
                                             const actuator::JobOptions& options,
                                             const core::Snapshot* before) {
  rounds::RoundRecord record = manual_round(next_number_++, time, target, options);
  if (before != nullptr) {
    keep_readings_before(record, *before);
  }
  keep(record);
  return record;
}

EndedJob RoundEngine::end_job(std::uint64_t number, const JobResult& result, bool cancel_requested,
                              TimePoint finished, std::string_view eviction_action) {
  EndedJob ended;
  rounds::RoundRecord* record = find_kept(number);
  rounds::RoundRecord trimmed;
  if (record == nullptr) {
    ended.kept = false;
    record = &trimmed;
  }
  for (const auto& [request, outcome] : result.evictions) {
    ended.evictions.push_back(record_eviction(request, outcome, eviction_action, *record));
  }
  record_job_result(result, cancel_requested, *record, kProcessesPerContainerKept);
  record->job_finished = finished;
  if (result.report) {
    ended.reports_dropped = rounds::keep_newest_full_reports(rounds_, kFullReportsKept);
  }
  if (ended.kept) {
    // One job runs at a time, so no later kept round has acted: appending keeps the order.
    add_to_history(*record);
  }
  ended.record = *record;
  return ended;
}

const rounds::RoundRecord* RoundEngine::find(std::uint64_t number) const {
  for (auto it = rounds_.rbegin(); it != rounds_.rend(); ++it) {
    if (it->number == number) {
      return &*it;
    }
  }
  return nullptr;
}

rounds::RoundRecord* RoundEngine::find_kept(std::uint64_t number) {
  return const_cast<rounds::RoundRecord*>(std::as_const(*this).find(number));
}

void RoundEngine::add_to_history(const rounds::RoundRecord& record) {
  if (auto entry = rounds::history_entry(record)) {
    history_.push_back(std::move(*entry));
    history_numbers_.push_back(record.number);
  }
}

void RoundEngine::keep(rounds::RoundRecord record) {
  add_to_history(record);
  rounds_.push_back(std::move(record));
  trim();
}

// Walking from the newest: a round stays if it is among the newest `keep_`, or if it acted and
// fewer than `keep_` newer rounds did. So a flood of rounds that acted on nothing (a pressure
// nothing relieves fails every interval) never pushes out the migrations that ping-pong bans and
// cool-downs are read from; and the acted rounds dropped are always the oldest ones.
void RoundEngine::trim() {
  if (rounds_.size() <= keep_) {
    return;
  }
  std::size_t newer = 0;
  std::size_t newer_acted = 0;
  std::size_t acted_dropped = 0;
  std::vector<bool> stays(rounds_.size());
  for (std::size_t i = rounds_.size(); i-- > 0; ++newer) {
    const bool acted = rounds_[i].acted();
    stays[i] = newer < keep_ || (acted && newer_acted < keep_);
    acted_dropped += acted && !stays[i] ? 1 : 0;
    newer_acted += acted ? 1 : 0;
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < rounds_.size(); ++i) {
    if (!stays[i]) {
      continue;
    }
    if (kept != i) {
      rounds_[kept] = std::move(rounds_[i]);
    }
    ++kept;
  }
  rounds_.resize(kept);
  const auto dropped = static_cast<std::ptrdiff_t>(acted_dropped);
  history_.erase(history_.begin(), history_.begin() + dropped);
  history_numbers_.erase(history_numbers_.begin(), history_numbers_.begin() + dropped);
}

// A measured round's history entry is updated in place: the effect and the end of its pending
// state are what the back-off reads.
std::vector<rounds::RoundRecord> RoundEngine::measure_due_effects(
    const core::Snapshot& after, const core::PolicyConfig& policy) {
  std::vector<rounds::RoundRecord> measured;
  for (rounds::RoundRecord& record : rounds_) {
    if (!record.effect_pending() || after.time < *record.job_finished + policy.effect_delay) {
      continue;
    }
    measure_effect(record, after, policy);
    const auto at = std::find(history_numbers_.begin(), history_numbers_.end(), record.number);
    if (at != history_numbers_.end()) {
      if (auto entry = rounds::history_entry(record)) {
        history_[static_cast<std::size_t>(at - history_numbers_.begin())] = std::move(*entry);
      }
    }
    measured.push_back(record);
  }
  return measured;
}

}  // namespace nb::service
