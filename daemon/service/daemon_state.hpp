#pragma once
// What the running daemon knows between rounds. The loop thread owns it: rounds write it and the
// admin commands, the metrics export and the textfile read it.

#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "core/decision.hpp"
#include "core/history.hpp"
#include "daemon/config/config.hpp"
#include "daemon/host/host_scan.hpp"
#include "daemon/rounds/round_record.hpp"
#include "daemon/service/export/metrics_export.hpp"
#include "daemon/service/node_baselines.hpp"
#include "daemon/service/round_engine.hpp"
#include "daemon/service/running_job.hpp"

namespace nb::service {

struct DaemonState {
  config::Config config;
  bool paused = false;
  bool dry_run = false;
  bool stopping = false;
  TimePoint started;
  RoundEngine engine;  // the kept rounds, the policy's history, the deferred round
  std::optional<rounds::RoundRecord> last_round;
  std::optional<rounds::RoundRecord> scanning;  // the round whose host scan is running
  std::optional<host::HostScan> last_scan;
  core::PolicyConfig last_scan_policy;  // the [policy] the last scan was decided with
  std::optional<core::Decision> last_decision;
  std::string last_scan_error;
  std::optional<FinishedJob> last_job;  // the newest, with its round and full report
  DaemonCounters counters;
  NodeBaselines baselines;  // learned from each round's latencies; persisted with the rounds
};

// Which provider answered each metric in the last scan, and whether any node had a value.
std::vector<ProviderState> provider_states(const DaemonState& state);

// The `metrics` command and the textfile export carry this same text.
// `job`: the running migration job's progress, if one runs.
std::string metrics_text(const DaemonState& state,
                         const std::optional<actuator::JobProgress>& job = std::nullopt);

}  // namespace nb::service
