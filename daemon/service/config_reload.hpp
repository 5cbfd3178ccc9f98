#pragma once
// Reloading the configuration file: what came of it, and how a new configuration is merged into
// the running one. The socket, the lock file and the state directory stay as they are until a
// restart; everything else applies at once.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "daemon/config/config.hpp"
#include "daemon/config/load.hpp"

namespace nb::service {

// A reload that was applied: the settings only a restart applies, left as they were.
struct ReloadApplied {
  std::vector<std::string> restart_needed;
};
// Applied, or refused: the error says why, its problems one per line. The socket's error reply
// and the audit trail (of the socket's reload and SIGHUP's) say the same.
using ReloadResult = Result<ReloadApplied>;

Error reload_refused(const std::vector<std::string>& problems);
// Why a reload was refused; nothing when it was applied.
std::optional<std::string> rejection(const ReloadResult& result);

// `next` with the settings only a restart applies put back to `current`'s; their names are
// appended to `restart_needed`.
config::Config merge_reloaded(const config::Config& current, config::Config next,
                              std::vector<std::string>& restart_needed);

using LoadConfigFunction = std::function<config::ConfigLoad(const std::filesystem::path&)>;

// Loads `file` and merges it into `current`; `restart_needed` names the settings left as they
// were. Without a file, or with problems (logged here), the refusal.
Result<config::Config> read_reloaded(const std::filesystem::path& file,
                                     const LoadConfigFunction& load, const config::Config& current,
                                     std::vector<std::string>& restart_needed);

}  // namespace nb::service
