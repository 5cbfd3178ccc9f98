#pragma once
// The simulation loop: the modelled host in simulated seconds, a round every `interval` with
// the daemon's own logic — the baselines tracker, core::decide over the history (cool-down,
// ping-pong, back-off), plan_round_job, the destination picker — and each round's effect
// measured with core::measure_effect from the first round's snapshot at least effect_delay after
// its job finished. No clock, no sleeping, no files: the same scenario gives the same output.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "core/decision.hpp"
#include "core/round_effect.hpp"
#include "core/threshold_mode.hpp"
#include "daemon/service/round_engine.hpp"
#include "daemon/sim/scenario.hpp"
#include "daemon/sim/series.hpp"
#include "daemon/sim/summary.hpp"

namespace nb::sim {

// How a run decides: `off` takes no rounds; absolute, relative and auto run the seed's strategy
// (katalyst) with that threshold mode; equalize runs that strategy with the configured threshold
// mode. The single run without --compare keeps the configured strategy and mode (and its name).
struct Mode {
  std::string name;
  bool rounds = true;
  std::optional<core::ThresholdMode> threshold_mode;
  std::optional<core::Strategy> strategy;
};

// "off,absolute,relative,auto,equalize", each once.
Result<std::vector<Mode>> parse_modes(std::string_view list);

struct NodeReport {
  NodeId id = 0;
  double read_latency_ns = 0;  // as reported: the interval's mean, with the scenario's noise
  double bandwidth_gbps = 0;
  Bytes free_bytes = 0;
  std::optional<double> baseline_read_latency_ns;  // as the policy saw it: configured or learned
};

// A round's effect, measured this round: its time, and the effect or why there is none.
struct EffectReport {
  long round_second = 0;
  core::EffectOrReason effect;
};

// A job that ended since the round before, as the engine was told.
struct EndedJobReport {
  std::uint64_t round_number = 0;
  actuator::MigrationReport report;
  TimePoint finished;
};

struct RoundReport {
  long second = 0;  // simulated seconds since the start
  std::vector<NodeReport> nodes;
  // What the round engine was given (snapshot, policy, whether a job ran) and what it decided.
  const service::RoundInputs* inputs = nullptr;
  std::vector<EndedJobReport> jobs_ended;
  const core::Decision* decision = nullptr;
  std::string_view outcome;  // the engine's: none, started, deferred, reported, failed
  Bytes bytes_moved = 0;     // by the mover since the round before
  std::vector<EffectReport> effects;
  // The host in the round's last second, so that a run can be plotted.
  std::optional<double> sensitive_latency_ns;
  std::optional<double> traffic_latency_ns;
  std::vector<std::pair<std::string, std::map<NodeId, Bytes>>> containers;  // bytes per node
};

using RoundSink = std::function<void(const RoundReport&)>;
// Every simulated second, for --csv and --plot.
using SecondSink = std::function<void(const SecondSample&)>;

// One run of `scenario` in `mode`; `backoff` false sets backoff_after to 0.
Summary run_mode(const Scenario& scenario, const Mode& mode, bool backoff,
                 const RoundSink& on_round, const SecondSink& on_second = {});

}  // namespace nb::sim
