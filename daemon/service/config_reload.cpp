#include "daemon/service/config_reload.hpp"

namespace nb::service {

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

}  // namespace nb::service
