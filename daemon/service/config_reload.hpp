#pragma once
// Reloading the configuration file: what came of it, and how a new configuration is merged into
// the running one. The socket, the lock file and the state directory stay as they are until a
// restart; everything else applies at once.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "daemon/config/config.hpp"
#include "daemon/config/load.hpp"

namespace nb::service {

struct ReloadOutcome {
  bool ok = false;
  std::vector<std::string> problems;
  std::vector<std::string> restart_needed;
};

// Why a reload was refused, its problems one per line; nothing when it was applied. The socket's
// error reply and the audit trail (of the socket's reload and SIGHUP's) say the same.
std::optional<std::string> rejection(const ReloadOutcome& outcome);

// `next` with the settings only a restart applies put back to `current`'s; their names are
// appended to `restart_needed`.
config::Config merge_reloaded(const config::Config& current, config::Config next,
                              std::vector<std::string>& restart_needed);

using LoadConfigFunction = std::function<config::ConfigLoad(const std::filesystem::path&)>;

// Loads `file` and merges it into `current`. Without a file, or with problems (logged here and
// added to `outcome`), nothing; `outcome.restart_needed` names the settings left as they were.
std::optional<config::Config> read_reloaded(const std::filesystem::path& file,
                                            const LoadConfigFunction& load,
                                            const config::Config& current, ReloadOutcome& outcome);

}  // namespace nb::service
