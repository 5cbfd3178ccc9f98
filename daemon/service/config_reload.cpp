#include "daemon/service/config_reload.hpp"

#include <spdlog/spdlog.h>

namespace nb::service {

std::optional<std::string> rejection(const ReloadOutcome& outcome) {
  if (outcome.ok) {
    return std::nullopt;
  }
  std::string message = "configuration rejected, the old one stays:";
  for (const auto& problem : outcome.problems) {
    message += "\n  " + problem;
  }
  return message;
}

config::Config merge_reloaded(const config::Config& current, config::Config next,
                              std::vector<std::string>& restart_needed) {
  if (next.admin.socket != current.admin.socket) {
    restart_needed.push_back("admin.socket");
  }
  if (next.daemon.lock_file != current.daemon.lock_file) {
    restart_needed.push_back("daemon.lock_file");
  }
  if (next.daemon.state_dir != current.daemon.state_dir) {
    restart_needed.push_back("daemon.state_dir");
    next.daemon.state_dir = current.daemon.state_dir;
  }
  next.admin.socket = current.admin.socket;
  next.daemon.lock_file = current.daemon.lock_file;
  return next;
}

std::optional<config::Config> read_reloaded(const std::filesystem::path& file,
                                            const LoadConfigFunction& load,
                                            const config::Config& current, ReloadOutcome& outcome) {
  if (file.empty()) {
    outcome.problems.push_back("the daemon was started without --config: nothing to reload");
    return std::nullopt;
  }
  auto loaded = load(file);
  if (!loaded.ok()) {
    for (const auto& problem : loaded.problems) {
      outcome.problems.push_back(problem.to_string());
      spdlog::error("reload {}: {}", file.string(), problem.to_string());
    }
    return std::nullopt;
  }
  return merge_reloaded(current, std::move(loaded.config), outcome.restart_needed);
}

}  // namespace nb::service
