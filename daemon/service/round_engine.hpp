#pragma once
// The rounds, without a clock, a thread or a file: numabalancerd and `numabalancerd simulate`
// drive this same engine, so that the simulator judges the daemon's own code. Given a snapshot,
// the time it was taken and the results of finished jobs, a round measures the effects that are
// due, calls the policy over the kept history, plans its job and comes to an outcome.
//
// The engine owns what the rounds leave behind and its invariants: the kept rounds (the newest
// kRoundsKept and, beyond them, the newest kRoundsKept that acted, so that a flood of failed
// rounds never lifts a ping-pong ban), the policy's history in step with them (the acted rounds,
// with their effects and whether one is still pending, which the back-off reads), the newest
// full reports, and the round deferred behind a running job. Its callers persist and publish
// what each call returns.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actuator/job_options.hpp"
#include "base/units.hpp"
#include "core/decision.hpp"
#include "core/history.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"
#include "daemon/config/config.hpp"
#include "daemon/rounds/round_record.hpp"
#include "daemon/service/job_outcome.hpp"
#include "daemon/service/round_job.hpp"
#include "daemon/service/running_job.hpp"

namespace nb::service {

// A full report keeps at most this many processes per container; the newest kFullReportsKept
// rounds keep theirs.
inline constexpr std::size_t kRoundsKept = 500;
inline constexpr std::size_t kFullReportsKept = 5;
inline constexpr std::size_t kProcessesPerContainerKept = 100;

using ContainerDirFunction = std::function<std::filesystem::path(std::string_view container_id)>;

// What one round is decided under, read afresh each round so that a reload applies at the next.
struct RoundInputs {
  const core::Snapshot& snapshot;
  const core::PolicyConfig& policy;
  const config::EvictionConfig& eviction;
  bool paused = false;
  bool dry_run = false;
  bool job_running = false;
  // Text the round's reason carries after the decision's (the daemon's "; learning: ..." note).
  std::function<std::string(const core::Decision&)> note = {};
};

// What a decided round comes to. `record` is kept unless its outcome is none.
struct DecidedRound {
  rounds::RoundRecord record;
  core::Decision decision;                   // as planned: evicted containers are out of its moves
  std::vector<rounds::RoundRecord> effects;  // kept rounds whose effect this round measured
  std::optional<RoundJobPlan> job;           // outcome started: the work its job runs
};

struct EndedJob {
  rounds::RoundRecord record;  // the round with what its job did
  bool kept = true;            // false when the round had been trimmed meanwhile
  // Older kept rounds whose full report this one's pushed out: changed too.
  std::vector<std::uint64_t> reports_dropped;
  std::vector<EvictionOutcome> evictions;
};

// How the engine decides and where a container's cgroup is: fakes in tests, the host's in the
// daemon, core::decide and the container's name in the simulator.
struct RoundEngineSeams {
  DecideFunction decide;  // empty: core::decide
  ContainerDirFunction container_dir = [](std::string_view id) {
    return std::filesystem::path(id);
  };
  bool cgroup_v2 = true;
};

class RoundEngine {
 public:
  using Seams = RoundEngineSeams;

  explicit RoundEngine(Seams seams = {}, std::size_t keep = kRoundsKept);

  // The rounds a state file kept, oldest first: numbering, trimming and the history go on from
  // them.
  void restore(std::vector<rounds::RoundRecord> rounds);

  // A round as it starts: numbered, stamped, scanning.
  rounds::RoundRecord open(TimePoint time, std::string trigger);
  // Effects due at inputs.snapshot.time, the decision over the kept history, the plan, the
  // outcome; keeps the round unless nothing came of it.
  DecidedRound decide(rounds::RoundRecord record, const RoundInputs& inputs);
  // A round that could not decide (its host scan failed): kept, failed with `reason`.
  rounds::RoundRecord fail(rounds::RoundRecord record, std::string reason);
  // The round a manual job runs under, kept as it starts; `before` (the last snapshot, if any)
  // gives the readings its effect is measured against.
  rounds::RoundRecord open_manual(TimePoint time, const actuator::MigrationTarget& target,
                                  const actuator::JobOptions& options,
                                  const core::Snapshot* before);
  // The job of round `number` ended at `finished`.
  EndedJob end_job(std::uint64_t number, const JobResult& result, bool cancel_requested,
                   TimePoint finished, std::string_view eviction_action);

  const std::vector<rounds::RoundRecord>& rounds() const { return rounds_; }
  const core::History& history() const { return history_; }
  const std::optional<rounds::RoundRecord>& deferred() const { return deferred_; }
  const rounds::RoundRecord* find(std::uint64_t number) const;
  std::uint64_t next_number() const { return next_number_; }

 private:
  void keep(rounds::RoundRecord record);
  void trim();
  std::vector<rounds::RoundRecord> measure_due_effects(const core::Snapshot& after,
                                                       const core::PolicyConfig& policy);
  rounds::RoundRecord* find_kept(std::uint64_t number);
  void add_to_history(const rounds::RoundRecord& record);

  Seams seams_;
  std::size_t keep_;
  std::vector<rounds::RoundRecord> rounds_;
  core::History history_;
  std::vector<std::uint64_t> history_numbers_;  // the round each history entry is
  std::optional<rounds::RoundRecord> deferred_;
  std::uint64_t next_number_ = 1;
};

}  // namespace nb::service
