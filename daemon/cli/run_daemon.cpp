#include <spdlog/spdlog.h>

#include <asio.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "daemon/cli/commands.hpp"
#include "daemon/config/load.hpp"
#include "daemon/config/logging.hpp"
#include "daemon/service/daemon.hpp"
#include "daemon/service/host_seams.hpp"

namespace nb::cli {

namespace {

// The kernel's own NUMA balancing moves pages back by itself and undoes our work.
void warn_about_autonuma() {
  std::ifstream in("/proc/sys/kernel/numa_balancing");
  int mode = 0;
  if (in >> mode && mode != 0) {
    spdlog::warn(
        "kernel.numa_balancing is {}: the kernel may move pages straight back; consider "
        "sysctl kernel.numa_balancing=0",
        mode);
  }
}

}  // namespace

int run_daemon(const GlobalOptions& global) {
  config::Config config;
  if (!global.config_path.empty()) {
    auto loaded = config::load_config_file(global.config_path);
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
    job_left_running = daemon.job_running();
    spdlog::info("numabalancerd stopped");
    config::shutdown_logging();
    if (job_left_running) {
      // The job ignored its cancel flag past the grace period; state is saved, so leave without
      // waiting for it (joining would hang the exit systemd is timing).
      std::_Exit(0);
    }
  }
  return 0;
}

}  // namespace nb::cli
