#include "daemon/service/config_reload.hpp"

#include <spdlog/spdlog.h>

namespace nb::service {

Error reload_refused(const std::vector<std::string>& problems) {
  std::string message = "configuration rejected, the old one stays:";
  for (const auto& problem : problems) {
    message += "\n  " + problem;
  }
  return make_error(0, std::move(message));
}

std::optional<std::string> rejection(const ReloadResult& result) {
  if (result.ok()) {
    return std::nullopt;
  }
  return result.error().context;
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

Result<config::Config> read_reloaded(const std::filesystem::path& file,
                                     const LoadConfigFunction& load, const config::Config& current,
                                     std::vector<std::string>& restart_needed) {
  if (file.empty()) {
    return reload_refused({"the daemon was started without --config: nothing to reload"});
  }
  auto loaded = load(file);
  if (!loaded.ok()) {
    std::vector<std::string> problems;
    for (const auto& problem : loaded.problems) {
      problems.push_back(problem.to_string());
      spdlog::error("reload {}: {}", file.string(), problem.to_string());
    }
    return reload_refused(problems);
  }
  return merge_reloaded(current, std::move(loaded.config), restart_needed);
}

}  // namespace nb::service
