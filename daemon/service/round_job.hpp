#pragma once
// From a round to its job: the round's decision, the work it asks for, the record a manual job
// runs under, and the one-line status systemd shows for a round.

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "actuator/migration_job.hpp"
#include "core/decision.hpp"
#include "daemon/codec/state_file.hpp"
#include "daemon/config/config.hpp"
#include "daemon/eviction/registry.hpp"
#include "daemon/service/daemon_state.hpp"

namespace nb::service {

using DecideFunction = std::function<core::Decision(
    const core::Snapshot&, const core::PolicyConfig&, const core::History&, TimePoint now)>;

// `decide` on the last scan (which must be there) with the round's [policy] and history; the
// explanation opens with why each metric without data has none, for `plan --explain`.
core::Decision decide_on_scan(const DecideFunction& decide, const DaemonState& state,
                              TimePoint now);

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
void record_decision(codec::RoundRecord& record, const core::Decision& decision,
                     const std::string& note);
// Ready, with a source, and something to migrate or evict.
bool has_work(const core::Decision& decision);

codec::RoundRecord manual_round(std::uint64_t number, TimePoint time,
                                const actuator::MigrationTarget& target,
                                const actuator::JobOptions& options);

std::string status_line(const codec::RoundRecord& record, bool paused, bool dry_run);

}  // namespace nb::service
