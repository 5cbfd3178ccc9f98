#pragma once
// What the admin commands may see of the running daemon and ask of it. The commands run on the
// loop thread, so they read the state directly; every change goes through a named request.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "actuator/migration_job.hpp"
#include "daemon/codec/audit_log.hpp"
#include "daemon/rounds/round_record.hpp"
#include "daemon/service/config_reload.hpp"
#include "daemon/service/daemon_state.hpp"
#include "daemon/service/running_job.hpp"

namespace nb::service {

struct ManualJobStarted {
  std::uint64_t job = 0;
  std::uint64_t round = 0;
};

class DaemonView {
 public:
  virtual ~DaemonView() = default;

  virtual const DaemonState& state() const = 0;
  virtual const RunningJob* job() const = 0;  // null when none runs
  virtual TimePoint now() const = 0;
  virtual const std::filesystem::path& config_file() const = 0;
  virtual const std::filesystem::path& proc_root() const = 0;
  virtual std::filesystem::path container_dir(std::string_view container_id) const = 0;
  virtual std::size_t clients() const = 0;  // admin connections open

  virtual void set_paused(bool paused) = 0;
  virtual void set_dry_run(bool enabled) = 0;
  // Starts a round now, or joins the one whose scan is running; returns it as it stands.
  virtual rounds::RoundRecord begin_round(std::string trigger) = 0;
  virtual ReloadResult reload() = 0;
  virtual void cancel_job() = 0;
  // Records a manual round and starts its job; the caller checked that no job runs.
  virtual ManualJobStarted start_manual_job(actuator::MigrationTarget target,
                                            actuator::JobOptions options) = 0;
  // A state-changing command's result and who asked: logged and appended to the audit log.
  virtual void record_command(const codec::CommandAudit& command) = 0;
};

}  // namespace nb::service
