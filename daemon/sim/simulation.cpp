#include "daemon/sim/simulation.hpp"

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <memory>
#include <set>

#include "daemon/metrics/baseline_tracker.hpp"
#include "daemon/service/node_baselines.hpp"
#include "daemon/service/node_load_points.hpp"
#include "daemon/service/round_engine.hpp"
#include "daemon/sim/host_model.hpp"
#include "daemon/sim/mover.hpp"
#include "daemon/sim/noise.hpp"

namespace nb::sim {
namespace {

// Simulated time starts at 2026-01-01T00:00:00Z; only differences mean anything.
const TimePoint kStart{std::chrono::seconds(1767225600)};

long seconds_of(Duration duration) {
  return static_cast<long>(std::chrono::duration_cast<std::chrono::seconds>(duration).count());
}

// The job of a round, while it runs.
struct RunningJob {
  std::unique_ptr<Mover> mover;
  std::uint64_t round_number = 0;
  double threshold = 0;
};

class Simulation {
 public:
  Simulation(const Scenario& scenario, const Mode& mode, bool backoff, const RoundSink& on_round,
             const SecondSink& on_second)
      : scenario_(scenario),
        mode_(mode),
        on_round_(on_round),
        on_second_(on_second),
        policy_(scenario.config.policy),
        host_(scenario),
        noise_(static_cast<std::uint64_t>(scenario.seed), scenario.noise),
        tracker_(scenario.config.metrics.baseline),
        summary_(host_, policy_.ping_pong_window, first_event(scenario), scenario.interval),
        sums_(host_.node_count()) {
    if (mode.threshold_mode) {
      policy_.threshold_mode = *mode.threshold_mode;
    }
    if (mode.strategy) {
      policy_.strategy = *mode.strategy;
    }
    if (!backoff) {
      policy_.backoff_after = 0;
    }
    tracker_.use_source(metrics::LatencySource{"simulated", core::LatencyKind::load_to_use});
  }

  Summary run();

 private:
  static std::optional<Duration> first_event(const Scenario& scenario) {
    if (scenario.events.empty()) {
      return std::nullopt;
    }
    return scenario.events.front().at;
  }

  void step(long second);
  void run_job(long second);
  void take_round(long second);
  core::Snapshot snapshot(long second, std::vector<NodeReport>& reports);
  void report_effects(const std::vector<rounds::RoundRecord>& measured, RoundReport& report);

  struct LoadSums {
    double latency = 0;
    double traffic = 0;
  };

  const Scenario& scenario_;
  const Mode& mode_;
  const RoundSink& on_round_;
  const SecondSink& on_second_;
  core::PolicyConfig policy_;
  HostModel host_;
  Noise noise_;
  metrics::BaselineTracker tracker_;
  service::NodeLoadPoints load_points_;
  SummaryBuilder summary_;
  std::vector<LoadSums> sums_;  // since the last round, by node index
  long seconds_summed_ = 0;
  std::size_t next_event_ = 0;
  std::vector<NodeLoad> loads_;
  service::RoundEngine engine_;
  std::optional<RunningJob> job_;
  std::vector<EndedJobReport> jobs_ended_;  // since the last round
  Bytes moved_since_round_ = 0;
};

Summary Simulation::run() {
  const long seconds = seconds_of(scenario_.duration);
  for (long second = 0; second < seconds; ++second) {
    step(second);
  }
  if (loads_.empty()) {
    loads_ = host_.loads();
  }
  return summary_.finish(loads_);
}

void Simulation::step(long second) {
  while (next_event_ < scenario_.events.size() &&
         seconds_of(scenario_.events[next_event_].at) <= second) {
    host_.apply(scenario_.events[next_event_++]);
  }
  run_job(second);
  loads_ = host_.loads();
  summary_.second(second, loads_);
  if (on_second_) {
    on_second_(SecondSample{second, summary_.sensitive_latency(loads_),
                            summary_.traffic_latency(loads_), loads_});
  }
  for (std::size_t n = 0; n < loads_.size(); ++n) {
    sums_[n].latency += loads_[n].loaded_latency_ns;
    sums_[n].traffic += loads_[n].traffic_gbps;
  }
  ++seconds_summed_;
  const long interval = seconds_of(scenario_.interval);
  if (mode_.rounds && (second + 1) % interval == 0) {
    take_round(second + 1);
  }
}

void Simulation::run_job(long second) {
  if (!job_) {
    return;
  }
  job_->mover->run_second([&](const Batch& batch) {
    summary_.batch(second, batch);
    moved_since_round_ += batch.bytes;
  });
  if (!job_->mover->done()) {
    return;
  }
  const Mover& mover = *job_->mover;
  if (mover.moved() > 0) {
    summary_.acted();
  }
  EndedJobReport ended{job_->round_number, mover.report(job_->threshold),
                       kStart + std::chrono::seconds(second + 1)};
  service::JobResult result;
  result.report = ended.report;
  engine_.end_job(ended.round_number, result, false, ended.finished,
                  config::EvictionConfig{}.action);
  jobs_ended_.push_back(std::move(ended));
  job_.reset();
}

core::Snapshot Simulation::snapshot(long second, std::vector<NodeReport>& reports) {
  core::Snapshot snapshot;
  snapshot.time = kStart + std::chrono::seconds(second);
  snapshot.read_latency_kind = core::LatencyKind::load_to_use;
  const double count = static_cast<double>(std::max(1L, seconds_summed_));
  for (std::size_t n = 0; n < host_.node_count(); ++n) {
    const ScenarioNode& model = host_.node(n);
    core::Node node;
    node.id = model.id;
    node.cpus = model.cpus;
    node.read_latency_ns = noise_.apply(sums_[n].latency / count);
    node.bandwidth_gbps = noise_.apply(sums_[n].traffic / count);
    node.free_bytes = host_.free_bytes(n);
    node.total_bytes = model.memory;
    for (std::size_t to = 0; to < host_.node_count(); ++to) {
      node.distance[host_.node(to).id] = host_.distance(n, to);
    }
    tracker_.record(node.id, snapshot.time, *node.read_latency_ns);
    reports.push_back(NodeReport{node.id, *node.read_latency_ns, *node.bandwidth_gbps,
                                 *node.free_bytes, std::nullopt});
    snapshot.nodes.push_back(std::move(node));
  }
  tracker_.prune(snapshot.time);
  service::fill_baselines(snapshot, tracker_);
  load_points_.observe(snapshot);
  for (std::size_t n = 0; n < reports.size(); ++n) {
    reports[n].baseline_read_latency_ns = snapshot.nodes[n].baseline_read_latency_ns;
  }
  for (const ScenarioPool& pool : scenario_.pools) {
    snapshot.pools.push_back(core::Pool{pool.name, pool.nodes});
  }
  for (std::size_t c = 0; c < host_.container_count(); ++c) {
    core::Container container{host_.container(c).id, host_.container(c).pool, {}};
    for (std::size_t n = 0; n < host_.node_count(); ++n) {
      if (Bytes bytes = host_.bytes_on(c, n); bytes > 0) {
        container.anon_bytes[host_.node(n).id] = bytes;
      }
    }
    snapshot.containers.push_back(std::move(container));
  }
  std::fill(sums_.begin(), sums_.end(), LoadSums{});
  seconds_summed_ = 0;
  return snapshot;
}

void Simulation::report_effects(const std::vector<rounds::RoundRecord>& measured,
                                RoundReport& report) {
  for (const rounds::RoundRecord& round : measured) {
    const long round_second = seconds_of(std::chrono::duration_cast<Duration>(round.time - kStart));
    if (round.effect) {
      summary_.effect(round.effect->effect.improved ? "improved" : "not_improved");
      report.effects.push_back(EffectReport{round_second, *round.effect});
    } else {
      summary_.effect("unknown");
      report.effects.push_back(EffectReport{round_second, round.effect_reason});
    }
  }
}

// The round as the daemon takes it, through the same engine: only the host and the mover are
// modelled. Evictions are not: the plan is made without an eviction action.
void Simulation::take_round(long second) {
  RoundReport report;
  report.second = second;
  const core::Snapshot now = snapshot(second, report.nodes);
  const config::EvictionConfig no_eviction;
  const service::RoundInputs inputs{
      .snapshot = now, .policy = policy_, .eviction = no_eviction, .job_running = job_.has_value()};
  service::DecidedRound round = engine_.decide(engine_.open(now.time, "timer"), inputs);
  report_effects(round.effects, report);
  if (round.job) {
    job_ = RunningJob{
        std::make_unique<Mover>(host_, *round.decision.source_node, std::move(round.job->targets),
                                round.job->budget, scenario_.config.actuator),
        round.record.number, round.decision.threshold};
  }
  report.inputs = &inputs;
  report.jobs_ended = std::move(jobs_ended_);
  jobs_ended_.clear();
  report.decision = &round.decision;
  report.outcome = rounds::to_string(round.record.outcome);
  summary_.round(core::to_string(round.decision.status),
                 round.record.outcome == rounds::RoundOutcome::deferred);
  report.bytes_moved = moved_since_round_;
  report.sensitive_latency_ns = summary_.sensitive_latency(loads_);
  report.traffic_latency_ns = summary_.traffic_latency(loads_);
  for (const core::Container& container : now.containers) {
    report.containers.emplace_back(container.id, container.anon_bytes);
  }
  moved_since_round_ = 0;
  if (on_round_) {
    on_round_(report);
  }
}

}  // namespace

Result<std::vector<Mode>> parse_modes(std::string_view list) {
  std::vector<Mode> modes;
  std::set<std::string> seen;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string_view::npos) {
      end = list.size();
    }
    const std::string name(list.substr(start, end - start));
    if (name == "off") {
      modes.push_back(Mode{name, false, std::nullopt, std::nullopt});
    } else if (name == core::to_string(core::Strategy::equalize)) {
      modes.push_back(Mode{name, true, std::nullopt, core::Strategy::equalize});
    } else if (auto mode = core::threshold_mode_from(name)) {
      modes.push_back(Mode{name, true, *mode, core::Strategy::katalyst});
    } else {
      return make_error(EINVAL,
                        "unknown mode \"" + name +
                            "\" (the modes are off, absolute, relative, auto and equalize)");
    }
    if (!seen.insert(name).second) {
      return make_error(EINVAL, "mode \"" + name + "\" is named twice");
    }
    start = end + 1;
  }
  return modes;
}

Summary run_mode(const Scenario& scenario, const Mode& mode, bool backoff,
                 const RoundSink& on_round, const SecondSink& on_second) {
  return Simulation(scenario, mode, backoff, on_round, on_second).run();
}

}  // namespace nb::sim
