#include "daemon/service/host_seams.hpp"

#include <spdlog/spdlog.h>

#include <memory>
#include <mutex>

#include "actuator/damon_sysfs.hpp"
#include "actuator/linux_memory_syscalls.hpp"
#include "core/decide.hpp"
#include "daemon/host/cgroup_layout.hpp"
#include "daemon/host/host_scanner.hpp"
#include "daemon/service/extension_names.hpp"
#include "daemon/service/provider_log.hpp"
#include "daemon/service/threshold_note.hpp"

namespace nb::service {
namespace {

// The scanner keeps its metric providers between rounds; a reload replaces it. Scans run on the
// round's worker thread while a reload runs on the loop thread, so a scan holds its own
// reference: a replaced scanner lives until the scan that uses it returns.
// The threshold note is said once per scanner, that is per configuration, not every round; a
// scan still running on a replaced scanner reports to that scanner's warning, not the new one.
// Providers going down and coming back are logged across reloads: a reload that mends a
// provider is followed by its "works again".
class CurrentScanner {
 public:
  CurrentScanner(std::filesystem::path host_root, const config::Config& config)
      : host_root_(std::move(host_root)), configured_(configure(config)) {}

  Result<host::HostScan> scan(TimePoint now) {
    Configured configured;
    {
      std::lock_guard lock(mutex_);
      configured = configured_;
    }
    auto scanned = configured.scanner->scan(now);
    std::optional<std::string> note;
    if (scanned) {
      std::lock_guard lock(mutex_);
      note = configured.warning->after_scan(configured.threshold_mode, scanned->report);
      providers_.after_scan(scanned->report, configured.metrics);
    }
    if (note) {
      spdlog::warn("{}", *note);
    }
    return scanned;
  }

  void reconfigure(const config::Config& next) {
    auto replacement = configure(next);
    std::lock_guard lock(mutex_);
    configured_ = std::move(replacement);
  }

 private:
  struct Configured {
    std::shared_ptr<host::HostScanner> scanner;
    core::ThresholdMode threshold_mode = core::ThresholdMode::automatic;
    std::shared_ptr<ThresholdWarning> warning;
    config::MetricsConfig metrics;
  };

  Configured configure(const config::Config& next) const {
    return Configured{.scanner = std::make_shared<host::HostScanner>(host_root_, next),
                      .threshold_mode = next.policy.threshold_mode,
                      .warning = std::make_shared<ThresholdWarning>(),
                      .metrics = next.metrics};
  }

  std::filesystem::path host_root_;
  std::mutex mutex_;
  Configured configured_;
  ProviderLog providers_;
};

}  // namespace

Result<DaemonSeams> host_seams(const config::Config& config,
                               const std::filesystem::path& host_root) {
  auto layout = host::detect_cgroup_layout(host_root);
  if (!layout) {
    return layout.error();
  }
  auto shared_layout = std::make_shared<host::CgroupLayout>(std::move(layout.value()));
  auto current = std::make_shared<CurrentScanner>(host_root, config);
  auto proc_root = host_root / "proc";
  auto sys_root = host_root / "sys";

  DaemonSeams seams;
  seams.scan = [current](TimePoint now) { return current->scan(now); };
  seams.decide = [](const core::Snapshot& snapshot, const core::PolicyConfig& policy,
                    const core::History& history,
                    TimePoint now) { return core::decide(snapshot, policy, history, now); };
  seams.load_config = [](const std::filesystem::path& path) {
    return config::load_config_file(path, extension_names());
  };
  seams.reconfigure = [current](const config::Config& next) { current->reconfigure(next); };
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
    actuator::LinuxDamonSysfs damon(actuator::damon_admin_root(sys_root));
    return actuator::run_migration(targets, options, syscalls, &damon, proc_root, cancel, progress);
  };
  return seams;
}

}  // namespace nb::service
