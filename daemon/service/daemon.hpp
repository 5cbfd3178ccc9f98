#pragma once
// The running daemon: every [daemon] interval it reads the host, decides, and (unless paused or
// in dry-run) hands the decision to a migration job on its own thread, then records the round.
// The io_context thread owns all of this state; the job thread only posts back. The host, the
// policy, the actuator and the config loader are seams, so the loop runs with fakes in tests
// and with the real pieces in numabalancerd.

#include <asio.hpp>
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "actuator/migration_job.hpp"
#include "base/result.hpp"
#include "core/decision.hpp"
#include "core/history.hpp"
#include "daemon/config/config.hpp"
#include "daemon/config/load.hpp"
#include "daemon/eviction/registry.hpp"
#include "daemon/host/host_scan.hpp"
#include "daemon/rounds/round_record.hpp"
#include "daemon/service/admin/admin_server.hpp"
#include "daemon/service/admin/command_table.hpp"
#include "daemon/service/admin/daemon_view.hpp"
#include "daemon/service/config_reload.hpp"
#include "daemon/service/daemon_state.hpp"
#include "daemon/service/export/audit_log.hpp"
#include "daemon/service/export/command_audit.hpp"
#include "daemon/service/export/failure_log.hpp"
#include "daemon/service/export/metrics_export.hpp"
#include "daemon/service/export/textfile_export.hpp"
#include "daemon/service/instance_lock.hpp"
#include "daemon/service/round_engine.hpp"
#include "daemon/service/running_job.hpp"
#include "daemon/service/scan_runner.hpp"
#include "daemon/service/sd_notify.hpp"
#include "daemon/service/socket_activation.hpp"
#include "daemon/service/state_store.hpp"

namespace nb::service {

struct DaemonSeams {
  // The round's worker thread calls this, one scan at a time, so that a slow host never stalls
  // the admin socket.
  std::function<Result<host::HostScan>(TimePoint now)> scan;
  // The loop thread calls these.
  std::function<core::Decision(const core::Snapshot&, const core::PolicyConfig&,
                               const core::History&, TimePoint now)>
      decide;
  LoadConfigFunction load_config;
  // After a reload was accepted: rebuild whatever depends on the config (the host scanner).
  std::function<void(const config::Config&)> reconfigure;
  std::function<std::filesystem::path(std::string_view container_id)> container_dir =
      [](std::string_view id) { return std::filesystem::path(id); };
  std::function<TimePoint()> clock = [] { return std::chrono::system_clock::now(); };
  bool cgroup_v2 = true;

  // The job thread calls these.
  MigrateFunction migrate;
  EvictFunction evict = eviction::evict;
};

struct DaemonOptions {
  std::filesystem::path config_file;  // what reload reads; empty: reload is refused
  SystemdNotifier notifier{""};
  // The admin socket from numabalancerd.socket; none: the daemon binds [admin] socket itself.
  std::optional<ActivatedSocket> activated_socket;
  std::filesystem::path proc_root = "/proc";
  // How long a stop waits for a running job to honour its cancel flag.
  Duration stop_grace = std::chrono::milliseconds(4000);
};

class Daemon final : private DaemonView {
 public:
  Daemon(asio::io_context& io, config::Config config, DaemonOptions options, DaemonSeams seams);
  ~Daemon() override;
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Takes the instance lock, loads the saved rounds, opens the admin socket, runs the first round,
  // tells systemd it is ready, and arms the timer and the signal handlers.
  Status start();
  // SIGTERM: stop accepting, cancel the job, save state, then stop the io_context.
  void request_stop();

  bool job_running() const { return job_ != nullptr; }
  // A thread is reading the host, one that overran scan_timeout included.
  bool scan_running() const { return scans_.running_for().has_value(); }
  const CommandTable& commands() const { return commands_; }

 private:
  // What the admin commands see and ask (DaemonView).
  const DaemonState& state() const override { return state_; }
  const RunningJob* job() const override { return job_.get(); }
  TimePoint now() const override { return seams_.clock(); }
  const std::filesystem::path& config_file() const override { return options_.config_file; }
  const std::filesystem::path& proc_root() const override { return options_.proc_root; }
  std::filesystem::path container_dir(std::string_view container_id) const override {
    return seams_.container_dir(container_id);
  }
  std::size_t clients() const override { return server_ ? server_->connections() : 0; }
  void set_paused(bool paused) override { state_.paused = paused; }
  void set_dry_run(bool enabled) override { state_.dry_run = enabled; }
  rounds::RoundRecord begin_round(std::string trigger) override;
  ReloadResult reload() override;
  void cancel_job() override;
  ManualJobStarted start_manual_job(actuator::MigrationTarget target,
                                    actuator::JobOptions options) override;
  void record_command(const codec::CommandAudit& command) override {
    audit_command(audit_log_, state_.config.export_, seams_.clock(), command);
  }

  void arm_timer();
  void arm_signals();
  void arm_watchdog();
  // A round reads the host on a worker thread and posts the snapshot back; deciding and acting
  // happen here, on the loop thread. One round at a time: asking while one reads joins it.
  void on_scan_done(Result<host::HostScan> scanned);
  // A round whose scan failed, or (via on_scan_done) whose finishing threw, is a failed round:
  // its reason starts with `failed_while`.
  rounds::RoundRecord finish_round(rounds::RoundRecord record, Result<host::HostScan> scanned,
                                   std::string_view failed_while = "reading the host failed");
  void start_round_job(const core::Decision& decision, const rounds::RoundRecord& record,
                       RoundJobPlan plan);
  // The kept rounds numbered `changed` go to the state file (a number no longer kept is skipped).
  void save_rounds(const std::vector<std::uint64_t>& changed, TimePoint now);
  // Only when [export] textfile names a file: the text is not rendered for nobody.
  void write_textfile();
  void start_job(std::unique_ptr<RunningJob> job, std::vector<actuator::MigrationTarget> targets,
                 actuator::JobOptions options, std::vector<eviction::EvictionRequest> evictions);
  void on_job_progress(std::uint64_t job_id, const actuator::JobProgress& progress);
  void on_job_done(std::uint64_t job_id, std::shared_ptr<JobResult> result);
  void finish_job(const RunningJob& job, JobResult& result);
  ReloadResult reload_config();
  void finish_stop();
  void ping_watchdog();
  // The event's data is built only while a client watches.
  using EventData = std::function<wire::Event::Data()>;
  void publish(std::string kind, const EventData& data);

  asio::io_context& io_;
  DaemonOptions options_;
  DaemonSeams seams_;
  CommandTable commands_;
  std::unique_ptr<AdminServer> server_;
  std::optional<InstanceLock> lock_;
  asio::steady_timer timer_;
  asio::steady_timer stop_timer_;
  asio::steady_timer watchdog_timer_;
  asio::signal_set signals_;
  std::chrono::steady_clock::time_point next_round_;

  DaemonState state_;
  std::uint64_t next_job_id_ = 1;
  ScanRunner scans_;
  StateStore store_;
  std::unique_ptr<RunningJob> job_;
  TextfileExport textfile_;
  AuditLog audit_log_;
  // Pressure the policy cannot relieve fails every round until it can: logged once per change.
  FailureLog policy_failures_{"relieving pressure"};
};

}  // namespace nb::service
