#pragma once
// From a round to its job: the round's decision, the work it asks for, the record a manual job
// runs under, and the one-line status systemd shows for a round.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actuator/migration_job.hpp"
#include "base/result.hpp"
#include "core/decision.hpp"
#include "daemon/config/config.hpp"
#include "daemon/eviction/registry.hpp"
#include "daemon/rounds/round_record.hpp"

namespace nb::service {

using DecideFunction = std::function<core::Decision(
    const core::Snapshot&, const core::PolicyConfig&, const core::History&, TimePoint now)>;

// When [eviction] acts, a container the decision evicts is not also migrated: the decision's
// moves and total_bytes become the plan's, so that `plan`, the round's record and its job agree.
void leave_evicted_out(core::Decision& decision, const config::EvictionConfig& eviction);

// The evictions (when [eviction] acts) and the migration of every other container the decision
// moves, within the sum of their bytes on the source.
struct RoundJobPlan {
  std::vector<actuator::MigrationTarget> targets;
  std::vector<eviction::EvictionRequest> evictions;
  Bytes budget = 0;
};

RoundJobPlan plan_round_job(
    const core::Decision& decision, const config::EvictionConfig& eviction,
    const std::function<std::filesystem::path(std::string_view)>& container_dir, bool cgroup_v2);

// The decision's status, reason (with `note` appended), nodes, bytes and containers.
void record_decision(rounds::RoundRecord& record, const core::Decision& decision,
                     const std::string& note);
// Ready, with a source, and something to migrate or evict.
bool has_work(const core::Decision& decision);
// What a decided round comes to when it starts no job: failed when the policy failed (pressure
// it cannot relieve: no destination, nothing movable), none when there is nothing to do, else
// held by pause, dry-run or the job still running. Nothing: its job starts.
std::optional<rounds::RoundOutcome> outcome_without_job(const core::Decision& decision, bool paused,
                                                        bool dry_run, bool job_running);
// The policy's failure as an error (its reason), Ok for any other decision: what the
// once-per-change log of unrelievable pressure notes each round.
Status policy_failure(const core::Decision& decision);

rounds::RoundRecord manual_round(std::uint64_t number, TimePoint time,
                                 const actuator::MigrationTarget& target,
                                 const actuator::JobOptions& options);

// systemd's status text: the round's line (codec/round_line.hpp) and whether the daemon is paused
// or in dry-run.
std::string status_line(const rounds::RoundRecord& record, bool paused, bool dry_run);

}  // namespace nb::service
