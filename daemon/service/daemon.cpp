#include "daemon/service/daemon.hpp"

#include <spdlog/spdlog.h>

#include <csignal>
#include <set>

#include "daemon/codec/audit_log.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/service/daemon_job.hpp"
#include "daemon/service/report_summary.hpp"

namespace nb::service {

namespace {

// The state file holds a summary of every kept round and the full report of the newest few;
// a full report keeps at most this many processes per container.
constexpr std::size_t kRoundsKept = 500;
constexpr std::size_t kFullReportsKept = 5;
constexpr std::size_t kProcessesPerContainerKept = 100;
constexpr auto kProgressEvery = std::chrono::milliseconds(100);

std::filesystem::path state_file(const config::Config& config) {
  return std::filesystem::path(config.daemon.state_dir) / codec::kStateFileName;
}

AdminServerOptions server_options(const config::Config& config,
                                  const std::filesystem::path& proc_root) {
  AdminServerOptions options;
  options.socket_path = config.admin.socket;
  options.socket_mode = config.admin.socket_mode;
  options.admin_group = config.admin.admin_group;
  options.max_clients = config.admin.max_clients;
  options.max_request_bytes = static_cast<std::size_t>(config.admin.max_request_bytes);
  options.idle_timeout = config.admin.idle_timeout;
  options.proc_root = proc_root;
  return options;
}

std::string status_line(const codec::RoundRecord& record, bool paused, bool dry_run) {
  std::string line = "round " + std::to_string(record.number) + ": " + record.status;
  if (record.outcome != "none") {
    line += " (" + record.outcome + ")";
  }
  if (!record.reason.empty()) {
    line += " - " + record.reason;
  }
  if (paused) {
    line += " [paused]";
  }
  if (dry_run) {
    line += " [dry-run]";
  }
  return line;
}

}  // namespace

Daemon::Daemon(asio::io_context& io, config::Config config, DaemonOptions options,
               DaemonSeams seams)
    : io_(io),
      config_(std::move(config)),
      options_(std::move(options)),
      seams_(std::move(seams)),
      timer_(io),
      stop_timer_(io),
      watchdog_timer_(io),
      signals_(io) {
  if (!seams_.clock) {
    seams_.clock = [] { return std::chrono::system_clock::now(); };
  }
  if (!seams_.container_dir) {
    seams_.container_dir = [](std::string_view id) { return std::filesystem::path(id); };
  }
  dry_run_ = config_.daemon.dry_run;
  register_commands();
}

Daemon::~Daemon() {
  if (job_ && job_->thread.joinable()) {
    job_->cancel = true;
    job_->thread.join();
  }
  // A scan cannot be interrupted; it ends on its own and its posted result is never read.
  if (scan_thread_.joinable()) {
    scan_thread_.join();
  }
}

Status Daemon::start() {
  started_ = seams_.clock();
  auto lock = InstanceLock::acquire(config_.daemon.lock_file);
  if (!lock) {
    return lock.error();
  }
  lock_.emplace(std::move(lock.value()));

  std::error_code error;
  std::filesystem::create_directories(config_.daemon.state_dir, error);
  auto loaded = codec::load_state(state_file(config_), started_);
  if (!loaded.problem.empty()) {
    spdlog::error(
        "state file {} is unreadable ({}); moved aside to {}; starting with empty history",
        state_file(config_).string(), loaded.problem,
        loaded.moved_aside_to ? loaded.moved_aside_to->string() : "nowhere");
  }
  rounds_ = std::move(loaded.rounds);
  codec::keep_newest_full_reports(rounds_, kFullReportsKept);
  for (const auto& record : rounds_) {
    next_round_number_ = std::max(next_round_number_, record.number + 1);
  }
  spdlog::info("loaded {} rounds from {}", rounds_.size(), state_file(config_).string());

  if (auto removed = remove_stale_socket(config_.admin.socket); !removed) {
    return removed.error();
  }
  server_ =
      std::make_unique<AdminServer>(io_, commands_, server_options(config_, options_.proc_root));
  if (auto started = server_->start(); !started) {
    return started.error();
  }
  signals_.add(SIGTERM);
  signals_.add(SIGINT);
  signals_.add(SIGHUP);
  arm_signals();

  next_round_ = std::chrono::steady_clock::now() + config_.daemon.interval;
  // The first round reads the host right here, before the loop serves anyone: systemd hears
  // READY only once there is a snapshot.
  auto first_record = new_round("timer");
  auto first_scan = seams_.scan(first_record.time);
  auto first = finish_round(std::move(first_record), std::move(first_scan));
  if (auto sent = options_.notifier.ready(status_line(first, paused_, dry_run_)); !sent) {
    spdlog::warn("sd_notify: {}", sent.error().message());
  }
  arm_timer();
  arm_watchdog();
  spdlog::info("numabalancerd running: admin socket {}, interval {} ms", config_.admin.socket,
               config_.daemon.interval.count());
  return Ok{};
}

void Daemon::arm_timer() {
  timer_.expires_at(next_round_);
  timer_.async_wait([this](asio::error_code error) {
    if (error || stopping_) {
      return;
    }
    // Rounds start one interval apart: sleeping interval minus the time spent.
    next_round_ = std::chrono::steady_clock::now() + config_.daemon.interval;
    begin_round("timer");
    arm_timer();
  });
}

// Besides each round, the watchdog hears from the loop every half period, so that a long
// interval does not look like a hang; a blocked loop thread stops both.
void Daemon::arm_watchdog() {
  auto period = options_.notifier.watchdog_interval();
  if (!period) {
    return;
  }
  watchdog_timer_.expires_after(*period / 2);
  watchdog_timer_.async_wait([this](asio::error_code error) {
    if (error || stopping_) {
      return;
    }
    if (auto sent = options_.notifier.watchdog(); !sent) {
      spdlog::debug("sd_notify: {}", sent.error().message());
    }
    arm_watchdog();
  });
}

void Daemon::arm_signals() {
  signals_.async_wait([this](asio::error_code error, int signal) {
    if (error) {
      return;
    }
    if (signal == SIGHUP) {
      auto outcome = reload();
      if (outcome.ok) {
        spdlog::info("SIGHUP: configuration reloaded");
      } else {
        spdlog::error("SIGHUP: configuration rejected, the old one stays");
      }
      arm_signals();
      return;
    }
    spdlog::info("{}: stopping", signal == SIGTERM ? "SIGTERM" : "SIGINT");
    request_stop();
  });
}

codec::RoundRecord Daemon::new_round(std::string trigger) {
  codec::RoundRecord record;
  record.number = next_round_number_++;
  record.time = seams_.clock();
  record.trigger = std::move(trigger);
  record.status = "scanning";
  record.outcome = "pending";
  return record;
}

codec::RoundRecord Daemon::begin_round(std::string trigger) {
  if (scanning_) {
    spdlog::debug("round {} is still reading the host; the {} request joins it", scanning_->number,
                  trigger);
    return *scanning_;
  }
  scanning_ = new_round(std::move(trigger));
  scan_thread_ = std::thread([this, scan = seams_.scan, now = scanning_->time] {
    auto scanned =
        std::make_shared<Result<codec::SnapshotDocument>>(make_error(0, "the scan did not run"));
    try {
      *scanned = scan(now);
    } catch (const std::exception& e) {
      *scanned = make_error(0, std::string("the host scan threw: ") + e.what());
    }
    asio::post(io_, [this, scanned] { on_scan_done(scanned); });
  });
  return *scanning_;
}

void Daemon::on_scan_done(std::shared_ptr<Result<codec::SnapshotDocument>> scanned) {
  if (!scanning_) {
    return;
  }
  scan_thread_.join();
  auto record = std::move(*scanning_);
  scanning_.reset();
  if (stopping_) {
    return;  // nothing starts once the daemon is stopping
  }
  finish_round(std::move(record), std::move(*scanned));
}

codec::RoundRecord Daemon::finish_round(codec::RoundRecord record,
                                        Result<codec::SnapshotDocument> scanned) {
  const TimePoint now = record.time;
  if (!scanned) {
    record.status = "failed";
    record.outcome = "failed";
    record.reason = "reading the host failed: " + scanned.error().message();
    last_scan_error_ = record.reason;
    spdlog::error("round {}: {}", record.number, record.reason);
  } else {
    last_scan_error_.clear();
    last_snapshot_ = std::move(scanned.value());
    auto decision =
        seams_.decide(last_snapshot_->snapshot, config_.policy, codec::to_history(rounds_), now);
    record.status = core::to_string(decision.status);
    record.reason = decision.reason;
    record.source_node = decision.source_node;
    record.dest_nodes = decision.dest_nodes;
    record.planned_bytes = decision.total_bytes;
    for (const auto& move : decision.migrate) {
      record.containers.push_back(move.id);
    }
    bool has_work = decision.status == core::DecisionStatus::ready &&
                    decision.source_node.has_value() &&
                    (!decision.migrate.empty() || !decision.evict.empty());
    if (!has_work) {
      record.outcome = "none";
    } else if (paused_) {
      record.outcome = "paused";
    } else if (dry_run_) {
      record.outcome = "dry_run";
    } else if (job_) {
      // One job at a time; the decision stays visible rather than being dropped.
      record.outcome = "deferred";
      deferred_ = record;
      spdlog::warn("round {}: decision deferred, job {} still running", record.number, job_->id);
    } else {
      start_round_job(decision, record);
    }
    last_decision_ = std::move(decision);
  }
  ++counters_.rounds[record.outcome];
  if (record.outcome != "none") {
    remember(record);
    save();
    audit_log_.append(config_.export_,
                      codec::audit_round_entry(record, scanned ? &*last_decision_ : nullptr));
  }
  last_round_ = record;
  nlohmann::json event = codec::to_json(record);
  if (last_decision_ && scanned) {
    event["decision"] = codec::to_json(*last_decision_);
  }
  publish("round", std::move(event));
  if (auto sent = options_.notifier.status(status_line(record, paused_, dry_run_)); !sent) {
    spdlog::debug("sd_notify: {}", sent.error().message());
  }
  if (auto sent = options_.notifier.watchdog(); !sent) {
    spdlog::debug("sd_notify: {}", sent.error().message());
  }
  textfile_.write(config_.export_.textfile, metrics_text());
  return record;
}

void Daemon::start_round_job(const core::Decision& decision, codec::RoundRecord& record) {
  std::vector<eviction::EvictionRequest> evictions;
  std::set<std::string> evicting;
  if (config_.eviction.action != "none") {
    for (const auto& candidate : decision.evict) {
      evictions.push_back(
          eviction::EvictionRequest{candidate.id, seams_.container_dir(candidate.id),
                                    seams_.cgroup_v2, *decision.source_node, decision.reason});
      evicting.insert(candidate.id);
    }
  }
  std::vector<actuator::MigrationTarget> targets;
  Bytes budget = 0;
  for (const auto& move : decision.migrate) {
    if (evicting.count(move.id) != 0) {
      continue;  // an evicted container is left out of this round's migration
    }
    targets.push_back(actuator::MigrationTarget{move.id, seams_.container_dir(move.id),
                                                std::nullopt, move.dest_nodes,
                                                move.bytes_on_source});
    budget += move.bytes_on_source;
  }
  if (targets.empty() && evictions.empty()) {
    record.outcome = "reported";
    return;
  }
  auto options = job_options();
  options.source_node = *decision.source_node;
  options.budget = budget;
  options.threshold = decision.threshold;

  auto job = std::make_unique<Job>();
  job->kind = "round";
  job->round_number = record.number;
  job->source_node = *decision.source_node;
  job->dest_nodes = decision.dest_nodes;
  job->budget = budget;
  record.outcome = "started";
  deferred_.reset();
  start_job(std::move(job), std::move(targets), options, std::move(evictions));
}

actuator::JobOptions Daemon::job_options() const {
  actuator::JobOptions options;
  options.threshold = config_.policy.migrate_threshold;
  options.rate_limit_mib_per_s = config_.actuator.rate_limit_mib_per_s;
  options.call_target = config_.actuator.call_target;
  options.deadline = config_.actuator.job_deadline;
  options.move_shared = config_.actuator.move_shared;
  options.min_free_bytes = config_.actuator.min_free_bytes;
  return options;
}

void Daemon::start_job(std::unique_ptr<Job> job, std::vector<actuator::MigrationTarget> targets,
                       actuator::JobOptions options,
                       std::vector<eviction::EvictionRequest> evictions) {
  job->id = next_job_id_++;
  job->started = seams_.clock();
  job->dry_run = options.dry_run;
  job->progress.goal = options.budget == actuator::kUnlimitedBudget ? 0 : options.budget;
  job_ = std::move(job);
  Job& running = *job_;
  spdlog::info("job {} ({}): {} targets, {} evictions, node {} -> [{}], budget {} bytes",
               running.id, running.kind, targets.size(), evictions.size(), running.source_node,
               fmt::join(running.dest_nodes, ","), running.budget);
  publish("job_started", job_json());

  running.thread =
      std::thread([this, id = running.id, cancel = &running.cancel, targets = std::move(targets),
                   options, evictions = std::move(evictions), migrate = seams_.migrate,
                   evict = seams_.evict, eviction_config = config_.eviction] {
        auto result = std::make_shared<JobResult>();
        try {
          for (const auto& request : evictions) {
            result->evictions.emplace_back(request, evict(eviction_config, request));
          }
          if (!targets.empty() && !cancel->load()) {
            auto last_post = std::chrono::steady_clock::time_point{};
            result->report =
                migrate(targets, options, *cancel, [&](const actuator::JobProgress& progress) {
                  auto now = std::chrono::steady_clock::now();
                  if (now - last_post < kProgressEvery) {
                    return;
                  }
                  last_post = now;
                  asio::post(io_, [this, id, progress] { on_job_progress(id, progress); });
                });
          }
        } catch (const std::exception& e) {
          result->error = e.what();
        }
        asio::post(io_, [this, id, result] { on_job_done(id, result); });
      });
}

void Daemon::on_job_progress(std::uint64_t job_id, const actuator::JobProgress& progress) {
  if (!job_ || job_->id != job_id) {
    return;
  }
  job_->progress = progress;
  publish("job_progress", job_json());
}

void Daemon::on_job_done(std::uint64_t job_id, std::shared_ptr<JobResult> result) {
  if (!job_ || job_->id != job_id) {
    return;
  }
  job_->thread.join();
  auto job = std::move(job_);
  codec::RoundRecord* record = find_round(job->round_number);
  codec::RoundRecord fallback;
  if (record == nullptr) {
    record = &fallback;
  }

  for (auto& [request, outcome] : result->evictions) {
    nlohmann::json event{{"container", request.container_id},
                         {"cgroup", request.cgroup_dir.string()},
                         {"action", config_.eviction.action},
                         {"node", request.node}};
    if (outcome && outcome->acted) {
      record->evicted.push_back(request.container_id);
      ++counters_.evictions[outcome->action];
      event["ok"] = true;
      event["detail"] = outcome->detail;
      spdlog::warn("evicted {} ({}): {}", request.container_id, outcome->action, outcome->detail);
    } else {
      event["ok"] = false;
      event["error"] = outcome ? outcome->detail : outcome.error().message();
      spdlog::error("eviction of {} failed: {}", request.container_id,
                    event["error"].get<std::string>());
    }
    publish("eviction", std::move(event));
  }

  if (result->report) {
    const auto& report = *result->report;
    counters_.add_report(report);
    record->moved_bytes = report.bytes_moved();
    record->migrated = !report.dry_run && report.bytes_moved() > 0;
    record->report = report_summary(report);
    record->full_report = full_report(report, kProcessesPerContainerKept);
    codec::keep_newest_full_reports(rounds_, kFullReportsKept);
    if (report.stop_reason == actuator::StopReason::cancelled) {
      record->outcome = "cancelled";
    } else {
      record->outcome = report.threshold_met ? "done" : "partial";
    }
  } else if (!result->error.empty()) {
    record->outcome = "failed";
    record->reason = "the job failed: " + result->error;
  } else {
    record->outcome = job->cancel ? "cancelled" : "done";
  }
  spdlog::info("job {} finished: {}, {} bytes moved", job->id, record->outcome,
               record->moved_bytes);
  if (last_round_ && last_round_->number == record->number) {
    last_round_ = *record;
  }
  save();
  audit_log_.append(config_.export_,
                    codec::audit_job_entry(seams_.clock(), job->id, *record,
                                           result->report ? &*result->report : nullptr));
  textfile_.write(config_.export_.textfile, metrics_text());
  last_job_ = {{"id", job->id},
               {"kind", job->kind},
               {"started", codec::format_time(job->started)},
               {"finished", codec::format_time(seams_.clock())},
               {"round", codec::to_json(*record)}};
  nlohmann::json event = codec::to_json(*record);
  event["job"] = job->id;
  publish("job_done", std::move(event));
  if (stopping_) {
    finish_stop();
  }
}

void Daemon::request_stop() {
  if (stopping_) {
    return;
  }
  stopping_ = true;
  if (auto sent = options_.notifier.stopping(); !sent) {
    spdlog::debug("sd_notify: {}", sent.error().message());
  }
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
  save();
  io_.stop();
}

void Daemon::remember(codec::RoundRecord record) {
  rounds_.push_back(std::move(record));
  if (rounds_.size() > kRoundsKept) {
    rounds_.erase(rounds_.begin(), rounds_.begin() + (rounds_.size() - kRoundsKept));
  }
}

codec::RoundRecord* Daemon::find_round(std::uint64_t number) {
  for (auto it = rounds_.rbegin(); it != rounds_.rend(); ++it) {
    if (it->number == number) {
      return &*it;
    }
  }
  return nullptr;
}

void Daemon::save() {
  if (auto saved = codec::save_state(state_file(config_), rounds_); !saved) {
    spdlog::error("saving state: {}", saved.error().message());
  }
}

void Daemon::publish(std::string kind, nlohmann::json data) {
  if (server_) {
    server_->broadcast(
        codec::Event{std::move(kind), codec::format_time(seams_.clock()), std::move(data)});
  }
}

Daemon::ReloadOutcome Daemon::reload() {
  ReloadOutcome outcome;
  if (options_.config_file.empty()) {
    outcome.problems.push_back("the daemon was started without --config: nothing to reload");
    return outcome;
  }
  auto loaded = seams_.load_config(options_.config_file);
  if (!loaded.ok()) {
    for (const auto& problem : loaded.problems) {
      outcome.problems.push_back(problem.to_string());
      spdlog::error("reload {}: {}", options_.config_file.string(), problem.to_string());
    }
    return outcome;
  }
  config::Config next = std::move(loaded.config);
  if (next.admin.socket != config_.admin.socket) {
    outcome.restart_needed.push_back("admin.socket");
  }
  if (next.daemon.lock_file != config_.daemon.lock_file) {
    outcome.restart_needed.push_back("daemon.lock_file");
  }
  if (next.daemon.state_dir != config_.daemon.state_dir) {
    outcome.restart_needed.push_back("daemon.state_dir");
    next.daemon.state_dir = config_.daemon.state_dir;
  }
  if (next.daemon.dry_run != config_.daemon.dry_run) {
    dry_run_ = next.daemon.dry_run;
  }
  if (next.daemon.log_level != config_.daemon.log_level) {
    spdlog::set_level(spdlog::level::from_str(next.daemon.log_level));
  }
  bool interval_changed = next.daemon.interval != config_.daemon.interval;
  next.admin.socket = config_.admin.socket;
  next.daemon.lock_file = config_.daemon.lock_file;
  config_ = std::move(next);
  if (server_) {
    server_->set_limits(config_.admin.max_clients,
                        static_cast<std::size_t>(config_.admin.max_request_bytes),
                        config_.admin.idle_timeout, config_.admin.admin_group);
  }
  if (seams_.reconfigure) {
    seams_.reconfigure(config_);
  }
  if (interval_changed && !stopping_) {
    next_round_ = std::chrono::steady_clock::now() + config_.daemon.interval;
    timer_.cancel();
    arm_timer();
  }
  outcome.ok = true;
  publish("config_reloaded", {{"restart_needed", outcome.restart_needed}});
  return outcome;
}

}  // namespace nb::service
