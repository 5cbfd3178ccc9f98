#include "daemon/service/daemon.hpp"

#include <spdlog/spdlog.h>

#include <csignal>

#include "base/time.hpp"
#include "daemon/codec/audit_log.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/service/admin/daemon_commands.hpp"
#include "daemon/service/contained.hpp"
#include "daemon/service/job_outcome.hpp"
#include "daemon/service/round_effects.hpp"
#include "daemon/service/round_history.hpp"
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
      scans_(io, seams_.scan) {
  state_.config = std::move(config);
  state_.dry_run = state_.config.daemon.dry_run;
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

  auto loaded = load_rounds(state_.config, state_.started);
  state_.rounds = std::move(loaded.rounds);
  state_.history = std::move(loaded.history);
  next_round_number_ = loaded.next_round_number;
  state_.baselines.restore(loaded.baselines);

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

codec::RoundRecord Daemon::new_round(std::string trigger) {
  return new_round_record(next_round_number_++, seams_.clock(), std::move(trigger));
}

codec::RoundRecord Daemon::begin_round(std::string trigger) {
  if (state_.scanning) {
    spdlog::debug("round {} is still reading the host; the {} request joins it",
                  state_.scanning->number, trigger);
    return *state_.scanning;
  }
  state_.scanning = new_round(std::move(trigger));
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
  const codec::RoundRecord started = record;
  auto failure = run_contained("round", state_.counters,
                               [&] { finish_round(std::move(record), std::move(scanned)); });
  if (failure && find_round(state_.rounds, started.number) == nullptr) {
    run_contained("round", state_.counters, [&] {
      finish_round(started, make_error(0, "internal error: " + *failure), "the round failed");
    });
  }
}

codec::RoundRecord Daemon::finish_round(codec::RoundRecord record, Result<host::HostScan> scanned,
                                        std::string_view failed_while) {
  const TimePoint now = record.time;
  bool effects_measured = false;
  if (!scanned) {
    record.status = codec::RoundStatus::failed;
    record.outcome = codec::RoundOutcome::failed;
    record.reason = std::string(failed_while) + ": " + scanned.error().message();
    state_.last_scan_error = record.reason;
    spdlog::error("round {}: {}", record.number, record.reason);
  } else {
    state_.last_scan_error.clear();
    state_.last_scan = std::move(scanned.value());
    state_.baselines.observe(*state_.last_scan, state_.config.metrics.baseline);
    state_.last_scan_policy = state_.config.policy;
    const core::Snapshot& snapshot = state_.last_scan->snapshot;
    effects_measured = record_due_effects(state_, snapshot, audit_log_) > 0;
    auto decision = decide_on_scan(seams_.decide, state_, now);
    record_decision(record, decision, state_.baselines.learning_note(decision, snapshot));
    policy_failures_.note(policy_failure(decision));
    if (auto held = outcome_without_job(decision, state_.paused, state_.dry_run, job_ != nullptr)) {
      record.outcome = *held;
    } else {
      start_round_job(decision, record);
    }
    if (record.outcome == codec::RoundOutcome::deferred) {
      state_.deferred = record;  // visible rather than dropped
      spdlog::warn("round {}: decision deferred, job {} still running", record.number, job_->id);
    }
    state_.last_decision = std::move(decision);
  }
  ++state_.counters.rounds[std::string(codec::to_string(record.outcome))];
  if (record.outcome != codec::RoundOutcome::none) {
    remember(state_.rounds, state_.history, record);
    save_state(state_, now);
    audit_log_.append(state_.config.export_,
                      codec::audit_round_entry(record, scanned ? &*state_.last_decision : nullptr));
  } else if (effects_measured || state_.baselines.save_due(now)) {
    save_state(state_, now);  // idle rounds only add readings and effects
  }
  state_.last_round = record;
  nlohmann::json event = codec::to_json(record);
  if (state_.last_decision && scanned) {
    event["decision"] = codec::to_json(*state_.last_decision);
  }
  publish("round", std::move(event));
  log_unsent(options_.notifier.status(status_line(record, state_.paused, state_.dry_run)));
  ping_watchdog();
  textfile_.write(state_.config.export_.textfile,
                  metrics_text(state_, job_ ? std::optional(job_->progress) : std::nullopt));
  return record;
}

void Daemon::start_round_job(const core::Decision& decision, codec::RoundRecord& record) {
  auto plan =
      plan_round_job(decision, state_.config.eviction, seams_.container_dir, seams_.cgroup_v2);
  if (plan.targets.empty() && plan.evictions.empty()) {
    record.outcome = codec::RoundOutcome::reported;
    return;
  }
  auto options = daemon_job_options(state_.config);
  options.source_node = *decision.source_node;
  options.budget = plan.budget;
  options.threshold = decision.threshold;

  record.outcome = codec::RoundOutcome::started;
  keep_readings_before(record, state_.last_scan->snapshot);
  state_.deferred.reset();
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
  publish("job_started", to_json(*job_));

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
  auto record = manual_round(next_round_number_++, seams_.clock(), target, options);
  if (state_.last_scan) {
    keep_readings_before(record, state_.last_scan->snapshot);
  }
  remember(state_.rounds, state_.history, record);
  save_state(state_, seams_.clock());

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
  publish("job_progress", to_json(*job_));
}

void Daemon::on_job_done(std::uint64_t job_id, std::shared_ptr<JobResult> result) {
  if (!job_ || job_->id != job_id) {
    return;
  }
  job_->thread.join();
  auto job = std::move(job_);
  run_contained("job_done", state_.counters, [&] { finish_job(*job, *result); });
  if (state_.stopping) {
    finish_stop();
  }
}

void Daemon::finish_job(const RunningJob& job, JobResult& result) {
  codec::RoundRecord* record = find_round(state_.rounds, job.round_number);
  codec::RoundRecord fallback;
  if (record == nullptr) {
    record = &fallback;
  }

  for (auto& [request, outcome] : result.evictions) {
    publish("eviction", record_eviction(request, outcome, state_.config.eviction.action, *record,
                                        state_.counters));
  }
  record_job_result(result, job.cancel, *record, state_.counters);
  record->job_finished = seams_.clock();
  if (result.report) {
    codec::keep_newest_full_reports(state_.rounds, kFullReportsKept);
  }
  if (record != &fallback) {
    job_ended(state_.history, *record);
  }
  spdlog::info("job {} finished: {}, {} bytes moved", job.id, codec::to_string(record->outcome),
               record->moved_bytes);
  if (state_.last_round && state_.last_round->number == record->number) {
    state_.last_round = *record;
  }
  save_state(state_, seams_.clock());
  audit_log_.append(state_.config.export_,
                    codec::audit_job_entry(seams_.clock(), job.id, *record,
                                           result.report ? &*result.report : nullptr));
  textfile_.write(state_.config.export_.textfile, metrics_text(state_));
  state_.last_job = finished_job_json(job, seams_.clock(), *record);
  nlohmann::json event = codec::to_json(*record);
  event["job"] = job.id;
  publish("job_done", std::move(event));
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
  save_state(state_, seams_.clock());
  io_.stop();
}

void Daemon::publish(std::string kind, nlohmann::json data) {
  if (server_) {
    server_->broadcast(
        wire::Event{std::move(kind), format_rfc3339(seams_.clock()), std::move(data)});
  }
}

ReloadResult Daemon::reload() {
  std::optional<ReloadResult> result;
  auto failure = run_contained("reload", state_.counters, [&] { result = reload_config(); });
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
  publish("config_reloaded", {{"restart_needed", applied.restart_needed}});
  return applied;
}

}  // namespace nb::service
