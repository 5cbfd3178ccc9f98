#include <spdlog/spdlog.h>

#include <unistd.h>

#include <asio.hpp>
#include <cstdlib>
#include <iostream>

#include "actuator/damon_kdamonds.hpp"
#include "actuator/damon_sysfs.hpp"
#include "daemon/cli/commands.hpp"
#include "daemon/config/load.hpp"
#include "daemon/config/logging.hpp"
#include "daemon/config/validate.hpp"
#include "daemon/host/autonuma.hpp"
#include "daemon/host/topology.hpp"
#include "daemon/service/daemon.hpp"
#include "daemon/service/extension_names.hpp"
#include "daemon/service/host_seams.hpp"

namespace nb::cli {

namespace {

void warn_about_autonuma() {
  if (auto warning = host::numa_balancing_warning("/")) {
    spdlog::warn("{}", *warning);
  }
}

// A numabalancer killed during a hot_first job's window leaves its kdamonds sampling, and DAMON
// busy for every tool, until someone removes them.
void remove_stale_kdamonds() {
  actuator::LinuxDamonSysfs damon(actuator::damon_admin_root("/sys"));
  auto cleanup = actuator::remove_stale_kdamonds(damon, "/proc", ::getpid());
  if (!cleanup) {
    spdlog::warn("DAMON: cannot remove the kdamonds a previous run left behind: {}",
                 cleanup.error().message());
  } else if (cleanup->removed > 0) {
    spdlog::info("DAMON: removed {} kdamonds a previous run left behind", cleanup->removed);
  } else if (!cleanup->left_alone.empty()) {
    spdlog::info(
        "DAMON is in use ({}): until that tool releases it, hot_first jobs go in address order",
        cleanup->left_alone);
  }
}

}  // namespace

int run_daemon(const GlobalOptions& global) {
  config::Config config;
  if (!global.config_path.empty()) {
    auto loaded = config::load_config_file(global.config_path, service::extension_names());
    if (!loaded.ok()) {
      std::cerr << "numabalancerd: " << global.config_path << " is invalid:\n";
      for (const auto& problem : loaded.problems) {
        std::cerr << "  " << problem.to_string() << "\n";
      }
      return 2;
    }
    config = std::move(loaded.config);
  }
  config::setup_logging(config::choose_log_level(global.log_level, config.daemon.log_level));
  warn_about_autonuma();
  remove_stale_kdamonds();
  if (auto note = config::baseline_window_note(config)) {
    spdlog::warn("{}", *note);
  }
  if (auto online = host::read_online_nodes("/")) {
    if (auto note = host::one_node_note(*online)) {
      spdlog::warn("{}", *note);
    }
  }

  auto seams = service::host_seams(config, "/");
  if (!seams) {
    spdlog::critical("cannot read the host: {}", seams.error().message());
    config::shutdown_logging();
    return 1;
  }
  service::DaemonOptions options;
  if (!global.config_path.empty()) {
    options.config_file = std::filesystem::absolute(global.config_path);
  }
  options.notifier = service::SystemdNotifier::from_environment();
  auto activated = service::take_activated_socket();
  if (!activated) {
    spdlog::critical("socket activation: {}", activated.error().message());
    config::shutdown_logging();
    return 1;
  }
  options.activated_socket = std::move(activated.value());

  asio::io_context io;
  bool job_left_running = false;
  {
    service::Daemon daemon(io, config, std::move(options), std::move(seams.value()));
    if (auto started = daemon.start(); !started) {
      spdlog::critical("numabalancerd cannot start: {}", started.error().message());
      config::shutdown_logging();
      return 1;
    }
    io.run();
    job_left_running = daemon.job_running() || daemon.scan_running();
    spdlog::info("numabalancerd stopped");
    config::shutdown_logging();
    if (job_left_running) {
      // The job ignored its cancel flag past the grace period, or a scan is still reading the
      // host (a probe round, a provider file that blocks); state is saved, so leave without
      // waiting for either (joining would hang the exit systemd is timing).
      std::_Exit(0);
    }
  }
  return 0;
}

}  // namespace nb::cli
