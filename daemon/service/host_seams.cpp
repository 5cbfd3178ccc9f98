#include "daemon/service/host_seams.hpp"

#include <spdlog/spdlog.h>

#include <memory>
#include <mutex>

#include "actuator/linux_memory_syscalls.hpp"
#include "core/decide.hpp"
#include "daemon/host/cgroup_layout.hpp"
#include "daemon/host/host_scanner.hpp"
#include "daemon/service/extension_names.hpp"
#include "daemon/service/provider_log.hpp"
#include "daemon/service/threshold_note.hpp"

namespace nb::service {

Result<DaemonSeams> host_seams(const config::Config& config,
                               const std::filesystem::path& host_root) {
  auto layout = host::detect_cgroup_layout(host_root);
  if (!layout) {
    return layout.error();
  }
  auto shared_layout = std::make_shared<host::CgroupLayout>(std::move(layout.value()));
  // The scanner keeps its metric providers between rounds; a reload replaces it. Scans run on
  // the round's worker thread while a reload runs on the loop thread, so the scan holds its own
  // reference: a replaced scanner lives until the scan that uses it returns.
  // The threshold note is said once per scanner, that is per configuration, not every round; a
  // scan still running on a replaced scanner reports to that scanner's warning, not the new one.
  // Providers going down and coming back are logged across reloads: a reload that mends a
  // provider is followed by its "works again".
  struct Configured {
    std::shared_ptr<host::HostScanner> scanner;
    core::ThresholdMode threshold_mode = core::ThresholdMode::automatic;
    std::shared_ptr<ThresholdWarning> warning;
    config::MetricsConfig metrics;
  };
  struct CurrentScanner {
    std::mutex mutex;
    Configured configured;
    ProviderLog providers;
  };
  auto configure = [host_root](const config::Config& next) {
    return Configured{.scanner = std::make_shared<host::HostScanner>(host_root, next),
                      .threshold_mode = next.policy.threshold_mode,
                      .warning = std::make_shared<ThresholdWarning>(),
                      .metrics = next.metrics};
  };
  auto current = std::make_shared<CurrentScanner>();
  current->configured = configure(config);
  auto proc_root = host_root / "proc";
  auto sys_root = host_root / "sys";

  DaemonSeams seams;
  seams.scan = [current](TimePoint now) {
    Configured configured;
    {
      std::lock_guard lock(current->mutex);
      configured = current->configured;
    }
    auto scanned = configured.scanner->scan(now);
    std::optional<std::string> note;
    if (scanned) {
      std::lock_guard lock(current->mutex);
      note = configured.warning->after_scan(configured.threshold_mode, scanned->report);
      current->providers.after_scan(scanned->report, configured.metrics);
    }
    if (note) {
      spdlog::warn("{}", *note);
    }
    return scanned;
  };
  seams.decide = [](const core::Snapshot& snapshot, const core::PolicyConfig& policy,
                    const core::History& history,
                    TimePoint now) { return core::decide(snapshot, policy, history, now); };
  seams.load_config = [](const std::filesystem::path& path) {
    return config::load_config_file(path, extension_names());
  };
  seams.reconfigure = [current, configure](const config::Config& next) {
    auto replacement = configure(next);
    std::lock_guard lock(current->mutex);
    current->configured = std::move(replacement);
  };
  seams.container_dir = [shared_layout](std::string_view id) {
    return shared_layout->container_dir(id);
  };
  // freeze and cgroup.kill need the unified hierarchy holding the containers.
  seams.cgroup_v2 = shared_layout->mode == host::CgroupMode::v2;
  seams.migrate = [proc_root, sys_root](
                      const std::vector<actuator::MigrationTarget>& targets,
                      const actuator::JobOptions& options, const std::atomic<bool>& cancel,
                      const std::function<void(const actuator::JobProgress&)>& progress) {
    actuator::LinuxMemorySyscalls syscalls(proc_root, sys_root);
    return actuator::run_migration(targets, options, syscalls, proc_root, cancel, progress);
  };
  return seams;
}

}  // namespace nb::service
