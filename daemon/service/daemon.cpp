#include "daemon/service/daemon.hpp"

#include <spdlog/spdlog.h>

#include <csignal>

#include "base/time.hpp"
#include "daemon/codec/audit_log.hpp"
#include "daemon/codec/explain.hpp"
#include "daemon/service/admin/daemon_commands.hpp"
#include "daemon/service/admin/event_json.hpp"
#include "daemon/service/contained.hpp"
#include "daemon/service/effect_log.hpp"
#include "daemon/service/job_outcome.hpp"
#include "daemon/service/round_job.hpp"
#include "daemon/service/signal_sender.hpp"

namespace nb::service {

namespace {

// systemd may be gone or never have listened; the daemon carries on either way.
void log_unsent(const Status& sent) {
  if (!sent) {
    spdlog::debug("sd_notify: {}", sent.error().message());
  }
}

}  // namespace

Daemon::Daemon(asio::io_context& io, config::Config config, DaemonOptions options,
               DaemonSeams seams)
    : io_(io),
      options_(std::move(options)),
      seams_(std::move(seams)),
      timer_(io),
      stop_timer_(io),
      watchdog_timer_(io),
      signals_(io),
      scans_(io, seams_.scan),
      store_(config.daemon.state_dir) {
  state_.config = std::move(config);
  state_.dry_run = state_.config.daemon.dry_run;
  // The policy's explanation opens with why each metric without data has none (`plan --explain`).
  auto decide = [this](const core::Snapshot& snapshot, const core::PolicyConfig& policy,
                       const core::History& history, TimePoint now) {
    core::Decision decision = seams_.decide(snapshot, policy, history, now);
    if (state_.last_scan) {
      codec::explain_unavailable_metrics(decision, state_.last_scan->report.providers);
    }
    return decision;
  };
  state_.engine = RoundEngine({decide, seams_.container_dir, seams_.cgroup_v2});
  register_daemon_commands(commands_, *this);
}

Daemon::~Daemon() {
  if (job_ && job_->thread.joinable()) {
    job_->cancel = true;
    job_->thread.join();
  }
}

Status Daemon::start() {
  state_.started = seams_.clock();
  auto lock = InstanceLock::acquire(state_.config.daemon.lock_file);
  if (!lock) {
    return lock.error();
  }
  lock_.emplace(std::move(lock.value()));

  auto loaded = store_.load(state_.started);
  state_.baselines.restore(loaded.baselines);
  state_.engine.restore(std::move(loaded.rounds));
  store_.compact(state_.engine.rounds(), state_.baselines, state_.started);

  auto server = open_admin_server(io_, commands_, state_.config.admin, options_.activated_socket);
  if (!server) {
    return server.error();
  }
  server_ = std::move(server.value());
  signals_.add(SIGTERM);
  signals_.add(SIGINT);
  signals_.add(SIGHUP);
  if (auto chained = chain_sighup_sender(); !chained.ok()) {
    spdlog::warn("a SIGHUP reload's audit entry will not name its sender: {}",
                 chained.error().message());
  }
  arm_signals();

  next_round_ = std::chrono::steady_clock::now() + state_.config.daemon.interval;
  // systemd hears READY only once there is a snapshot, but the first scan (a probe's first
  // round takes up to 30 s) runs off this thread like every other, so that SIGTERM meanwhile
  // stops the daemon at once.
  begin_round("timer");
  while (state_.scanning && !state_.stopping && io_.run_one() > 0) {
  }
  if (state_.stopping) {
    return Ok{};
  }
  if (auto sent =
          options_.notifier.ready(status_line(*state_.last_round, state_.paused, state_.dry_run));
      !sent) {
    spdlog::warn("sd_notify: {}", sent.error().message());
  }
  arm_timer();
  arm_watchdog();
  spdlog::info("numabalancerd running: admin socket {}, interval {} ms", state_.config.admin.socket,
               state_.config.daemon.interval.count());
  return Ok{};
}

void Daemon::arm_timer() {
  timer_.expires_at(next_round_);
  timer_.async_wait([this](asio::error_code error) {
    if (error || state_.stopping) {
      return;
    }
    // Rounds start one interval apart: sleeping interval minus the time spent.
    next_round_ = std::chrono::steady_clock::now() + state_.config.daemon.interval;
    begin_round("timer");
    arm_timer();
  });
}

// Besides each round, the watchdog hears from the loop every half period, so that a long
// interval does not look like a hang. A blocked loop thread stops both, and so does a host scan
// stuck past scan_timeout: rounds that fail at once behind it are not progress.
void Daemon::ping_watchdog() {
  auto scanning = scans_.running_for();
  if (!scanning || *scanning <= state_.config.daemon.scan_timeout) {
    log_unsent(options_.notifier.watchdog());
  }
}

void Daemon::arm_watchdog() {
  auto period = options_.notifier.watchdog_interval();
  if (!period) {
    return;
  }
  watchdog_timer_.expires_after(*period / 2);
  watchdog_timer_.async_wait([this](asio::error_code error) {
    if (error || state_.stopping) {
      return;
    }
    ping_watchdog();
    arm_watchdog();
  });
}

void Daemon::arm_signals() {
  signals_.async_wait([this](asio::error_code error, int signal) {
    if (error) {
      return;
    }
    if (signal == SIGHUP) {
      auto sender = take_sighup_sender();
      record_command({.command = "reload",
                      .via = "SIGHUP",
                      .uid = sender ? std::optional(sender->uid) : std::nullopt,
                      .pid = sender ? std::optional(sender->pid) : std::nullopt,
                      .error = rejection(reload())});
      arm_signals();
      return;
    }
    spdlog::info("{}: stopping", signal == SIGTERM ? "SIGTERM" : "SIGINT");
    request_stop();
  });
}

rounds::RoundRecord Daemon::begin_round(std::string trigger) {
  if (state_.scanning) {
    spdlog::debug("round {} is still reading the host; the {} request joins it",
                  state_.scanning->number, trigger);
    return *state_.scanning;
  }
  state_.scanning = state_.engine.open(seams_.clock(), std::move(trigger));
  scans_.start(state_.scanning->time, state_.config.daemon.scan_timeout,
               [this](Result<host::HostScan> scanned) { on_scan_done(std::move(scanned)); });
  return *state_.scanning;
}

void Daemon::on_scan_done(Result<host::HostScan> scanned) {
  if (!state_.scanning) {
    return;
  }
  auto record = std::move(*state_.scanning);
  state_.scanning.reset();
  if (state_.stopping) {
    return;  // nothing starts once the daemon is stopping
  }
  const rounds::RoundRecord started = record;
  auto failure = run_contained(Activity::round, state_.counters,
                               [&] { finish_round(std::move(record), std::move(scanned)); });
  if (failure && state_.engine.find(started.number) == nullptr) {
    run_contained(Activity::round, state_.counters, [&] {
      finish_round(started, make_error(0, "internal error: " + *failure), "the round failed");
    });
  }
}

rounds::RoundRecord Daemon::finish_round(rounds::RoundRecord record, Result<host::HostScan> scanned,
                                         std::string_view failed_while) {
  const TimePoint now = record.time;
  std::vector<std::uint64_t> changed;
  if (!scanned) {
    std::string reason = std::string(failed_while) + ": " + scanned.error().message();
    state_.last_scan_error = reason;
    spdlog::error("round {}: {}", record.number, reason);
    record = state_.engine.fail(std::move(record), std::move(reason));
  } else {
    state_.last_scan_error.clear();
    state_.last_scan = std::move(scanned.value());
    state_.baselines.observe(*state_.last_scan, state_.config.metrics.baseline);
    state_.last_scan_policy = state_.config.policy;
    const core::Snapshot& snapshot = state_.last_scan->snapshot;
    DecidedRound round = state_.engine.decide(
        std::move(record), RoundInputs{.snapshot = snapshot,
                                       .policy = state_.config.policy,
                                       .eviction = state_.config.eviction,
                                       .paused = state_.paused,
                                       .dry_run = state_.dry_run,
                                       .job_running = job_ != nullptr,
                                       .note = [&](const core::Decision& decision) {
                                         return state_.baselines.learning_note(decision, snapshot);
                                       }});
    for (const rounds::RoundRecord& measured : round.effects) {
      ++state_.counters
            .effects[rounds::effect_result(measured).value_or(rounds::EffectResult::unknown)];
      log_effect(measured);
      audit_log_.append(state_.config.export_,
                        [&] { return codec::audit_effect_entry(snapshot.time, measured); });
      changed.push_back(measured.number);
    }
    policy_failures_.note(policy_failure(round.decision));
    if (round.record.outcome == rounds::RoundOutcome::deferred) {
      spdlog::warn("round {}: decision deferred, job {} still running", round.record.number,
                   job_->id);
    }
    if (round.job) {
      start_round_job(round.decision, round.record, std::move(*round.job));
    }
    record = std::move(round.record);
    state_.last_decision = std::move(round.decision);
  }
  ++state_.counters.rounds[record.outcome];
  if (record.outcome != rounds::RoundOutcome::none) {
    changed.push_back(record.number);
  }
  save_rounds(changed, now);
  if (record.outcome != rounds::RoundOutcome::none) {
    audit_log_.append(state_.config.export_, [&] {
      return codec::audit_round_entry(record, scanned ? &*state_.last_decision : nullptr);
    });
  }
  state_.last_round = record;
  publish("round", [&] {
    return round_event_json(record,
                            scanned && state_.last_decision ? &*state_.last_decision : nullptr);
  });
  log_unsent(options_.notifier.status(status_line(record, state_.paused, state_.dry_run)));
  ping_watchdog();
  write_textfile();
  return record;
}

void Daemon::save_rounds(const std::vector<std::uint64_t>& changed, TimePoint now) {
  std::vector<const rounds::RoundRecord*> records;
  for (std::uint64_t number : changed) {
    if (const rounds::RoundRecord* record = state_.engine.find(number)) {
      records.push_back(record);
    }
  }
  store_.write(records, state_.engine.rounds(), state_.baselines, now);
}

void Daemon::write_textfile() {
  if (state_.config.export_.textfile.empty()) {
    return;
  }
  textfile_.write(state_.config.export_.textfile,
                  metrics_text(state_, job_ ? std::optional(job_->progress) : std::nullopt));
}

void Daemon::start_round_job(const core::Decision& decision, const rounds::RoundRecord& record,
                             RoundJobPlan plan) {
  auto options = daemon_job_options(state_.config);
  options.source_node = *decision.source_node;
  options.budget = plan.budget;
  options.threshold = decision.threshold;
  start_job(
      new_job("round", record.number, *decision.source_node, decision.dest_nodes, plan.budget),
      std::move(plan.targets), options, std::move(plan.evictions));
}

void Daemon::start_job(std::unique_ptr<RunningJob> job,
                       std::vector<actuator::MigrationTarget> targets, actuator::JobOptions options,
                       std::vector<eviction::EvictionRequest> evictions) {
  job->id = next_job_id_++;
  job->started = seams_.clock();
  job->dry_run = options.dry_run;
  job->progress.goal = options.budget == actuator::kUnlimitedBudget ? 0 : options.budget;
  job_ = std::move(job);
  RunningJob& running = *job_;
  spdlog::info("job {} ({}): {} targets, {} evictions, node {} -> [{}], budget {} bytes",
               running.id, running.kind, targets.size(), evictions.size(), running.source_node,
               fmt::join(running.dest_nodes, ","), running.budget);
  publish("job_started", [&] { return job_json(*job_); });

  JobWork work{std::move(targets),     options,        std::move(evictions),
               state_.config.eviction, seams_.migrate, seams_.evict};
  running.thread =
      std::thread([this, id = running.id, cancel = &running.cancel, work = std::move(work)] {
        auto result =
            run_job_work(work, *cancel, [this, id](const actuator::JobProgress& progress) {
              asio::post(io_, [this, id, progress] { on_job_progress(id, progress); });
            });
        asio::post(io_, [this, id, result] { on_job_done(id, result); });
      });
}

ManualJobStarted Daemon::start_manual_job(actuator::MigrationTarget target,
                                          actuator::JobOptions options) {
  auto record = state_.engine.open_manual(seams_.clock(), target, options,
                                          state_.last_scan ? &state_.last_scan->snapshot : nullptr);
  save_rounds({record.number}, seams_.clock());
  start_job(new_job("manual", record.number, options.source_node, target.dest_nodes,
                    record.planned_bytes),
            {std::move(target)}, options, {});
  return ManualJobStarted{job_->id, record.number};
}

void Daemon::cancel_job() {
  if (job_) {
    job_->cancel = true;
  }
}

void Daemon::on_job_progress(std::uint64_t job_id, const actuator::JobProgress& progress) {
  if (!job_ || job_->id != job_id) {
    return;
  }
  job_->progress = progress;
  publish("job_progress", [&] { return job_json(*job_); });
}

void Daemon::on_job_done(std::uint64_t job_id, std::shared_ptr<JobResult> result) {
  if (!job_ || job_->id != job_id) {
    return;
  }
  job_->thread.join();
  auto job = std::move(job_);
  run_contained(Activity::job_done, state_.counters, [&] { finish_job(*job, *result); });
  if (state_.stopping) {
    finish_stop();
  }
}

void Daemon::finish_job(const RunningJob& job, JobResult& result) {
  EndedJob ended = state_.engine.end_job(job.round_number, result, job.cancel, seams_.clock(),
                                         state_.config.eviction.action);
  for (const EvictionOutcome& eviction : ended.evictions) {
    if (eviction.acted) {
      ++state_.counters.evictions[eviction.acted_as];
      spdlog::warn("evicted {} ({}): {}", eviction.container, eviction.acted_as, eviction.detail);
    } else {
      spdlog::error("eviction of {} failed: {}", eviction.container, eviction.detail);
    }
    publish("eviction", [&] { return eviction_json(eviction); });
  }
  if (result.report) {
    state_.counters.add_report(*result.report);
  }
  const rounds::RoundRecord& record = ended.record;
  spdlog::info("job {} finished: {}, {} bytes moved", job.id, rounds::to_string(record.outcome),
               record.moved_bytes);
  if (state_.last_round && state_.last_round->number == record.number) {
    state_.last_round = record;
  }
  std::vector<std::uint64_t> changed = ended.reports_dropped;
  if (ended.kept) {
    changed.push_back(record.number);
  }
  save_rounds(changed, seams_.clock());
  audit_log_.append(state_.config.export_, [&] {
    return codec::audit_job_entry(seams_.clock(), job.id, record,
                                  result.report ? &*result.report : nullptr);
  });
  write_textfile();
  state_.last_job = FinishedJob{job.id, job.kind, job.started, seams_.clock(), record};
  publish("job_done", [&] { return job_done_event_json(record, job.id); });
}

void Daemon::request_stop() {
  if (state_.stopping) {
    return;
  }
  state_.stopping = true;
  log_unsent(options_.notifier.stopping());
  if (server_) {
    server_->stop();
  }
  timer_.cancel();
  watchdog_timer_.cancel();
  signals_.cancel();
  if (!job_) {
    finish_stop();
    return;
  }
  spdlog::info("cancelling job {} before exit", job_->id);
  job_->cancel = true;
  stop_timer_.expires_after(options_.stop_grace);
  stop_timer_.async_wait([this](asio::error_code error) {
    if (!error) {
      spdlog::error("job did not stop within {} ms; exiting without it",
                    options_.stop_grace.count());
      finish_stop();
    }
  });
}

void Daemon::finish_stop() {
  stop_timer_.cancel();
  store_.compact(state_.engine.rounds(), state_.baselines, seams_.clock());
  io_.stop();
}

void Daemon::publish(std::string kind, const EventData& data) {
  if (server_ && server_->watchers() > 0) {
    server_->broadcast(wire::Event{std::move(kind), format_rfc3339(seams_.clock()), data()});
  }
}

ReloadResult Daemon::reload() {
  std::optional<ReloadResult> result;
  auto failure =
      run_contained(Activity::reload, state_.counters, [&] { result = reload_config(); });
  if (failure || !result) {
    return reload_refused({"reload failed: internal error: " + failure.value_or("")});
  }
  return std::move(*result);
}

ReloadResult Daemon::reload_config() {
  ReloadApplied applied;
  auto read = read_reloaded(options_.config_file, seams_.load_config, state_.config,
                            applied.restart_needed);
  if (!read) {
    return read.error();
  }
  config::Config next = std::move(*read);
  state_.dry_run =
      next.daemon.dry_run != state_.config.daemon.dry_run ? next.daemon.dry_run : state_.dry_run;
  if (next.daemon.log_level != state_.config.daemon.log_level) {
    spdlog::set_level(spdlog::level::from_str(next.daemon.log_level));
  }
  bool interval_changed = next.daemon.interval != state_.config.daemon.interval;
  state_.config = std::move(next);
  if (server_) {
    server_->set_limits(state_.config.admin);
  }
  if (seams_.reconfigure) {
    seams_.reconfigure(state_.config);
  }
  if (interval_changed && !state_.stopping) {
    next_round_ = std::chrono::steady_clock::now() + state_.config.daemon.interval;
    timer_.cancel();
    arm_timer();
  }
  publish("config_reloaded", [&] { return config_reloaded_event_json(applied.restart_needed); });
  return applied;
}

}  // namespace nb::service
