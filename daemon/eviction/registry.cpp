#include "daemon/eviction/registry.hpp"

#include <cerrno>

#include "daemon/eviction/exec_action.hpp"
#include "daemon/eviction/freeze_action.hpp"
#include "daemon/eviction/kill_action.hpp"
#include "daemon/eviction/none_action.hpp"

namespace nb::eviction {

std::span<const ActionEntry> actions() {
  static const ActionEntry entries[] = {
      {"none", make_none_action, "only report the container"},
      {"freeze", make_freeze_action, "write cgroup.freeze (cgroup v2)"},
      {"kill", make_kill_action, "write cgroup.kill on v2, SIGKILL each process on v1"},
      {"exec", make_exec_action, "run [eviction] exec without a shell"},
  };
  return entries;
}

std::vector<std::string_view> action_names() {
  std::vector<std::string_view> names;
  for (const ActionEntry& entry : actions()) {
    names.push_back(entry.name);
  }
  return names;
}

Result<EvictionResult> evict(const config::EvictionConfig& config, const EvictionRequest& request) {
  for (const ActionEntry& entry : actions()) {
    if (entry.name == config.action) {
      EvictionResult result;
      result.action = config.action;
      return entry.make(config)->evict(request, std::move(result));
    }
  }
  return make_error(EINVAL, "unknown eviction action \"" + config.action + "\"");
}

}  // namespace nb::eviction
