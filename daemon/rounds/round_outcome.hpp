#pragma once
// A round's status (what the decision said, or where the round stands before there is one) and
// its outcome (what came of it). Both are written by name into the state file, the audit log,
// admin replies and the rounds_total metric.

#include <optional>
#include <string_view>

#include "core/decision.hpp"

namespace nb::rounds {

enum class RoundStatus {
  scanning,  // the host is being read
  manual,    // a migration asked for over the admin socket, not decided
  ready,
  idle,
  cooldown,
  no_metrics,
  calibrating,  // relative thresholds wait for every node's baseline
  failed,
};

enum class RoundOutcome {
  pending,    // the host is being read
  none,       // nothing to do
  paused,     // work was decided but the daemon is paused
  dry_run,    // work was decided but the daemon is in dry-run
  deferred,   // work was decided while a job still ran
  reported,   // the decision's only work was evictions, and [eviction] action is "none"
  started,    // a job runs
  done,       // the job met its threshold
  partial,    // the job ended below its threshold
  cancelled,  // the job was cancelled
  failed,     // reading the host or the job failed
};

RoundStatus round_status(core::DecisionStatus status);

std::string_view to_string(RoundStatus status);
std::string_view to_string(RoundOutcome outcome);
std::optional<RoundStatus> round_status_named(std::string_view name);
// Also reads "acted", which early state files hold for a round whose job ran, as done.
std::optional<RoundOutcome> round_outcome_named(std::string_view name);

}  // namespace nb::rounds
