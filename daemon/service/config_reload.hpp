#pragma once
// Reloading the configuration file: what came of it, and how a new configuration is merged into
// the running one. The socket, the lock file and the state directory stay as they are until a
// restart; everything else applies at once.

#include <string>
#include <vector>

#include "daemon/config/config.hpp"

namespace nb::service {

struct ReloadOutcome {
  bool ok = false;
  std::vector<std::string> problems;
  std::vector<std::string> restart_needed;
};

// `next` with the settings only a restart applies put back to `current`'s; their names are
// appended to `restart_needed`.
config::Config merge_reloaded(const config::Config& current, config::Config next,
                              std::vector<std::string>& restart_needed);

}  // namespace nb::service
