#pragma once
// Every eviction action, by the name `[eviction] action` gives it. Config validation accepts
// exactly these names (through config::ExtensionNames); evict() makes the action named.

#include <span>
#include <string_view>
#include <vector>

#include "daemon/eviction/eviction_action.hpp"

namespace nb::eviction {

struct ActionEntry {
  std::string_view name;
  MakeEvictionAction make;
  std::string_view doc;  // one line, as in numabalancerd.conf(5)
};

std::span<const ActionEntry> actions();
std::vector<std::string_view> action_names();

// Runs the configured action on one container. An action not in the registry is EINVAL.
Result<EvictionResult> evict(const config::EvictionConfig& config, const EvictionRequest& request);

}  // namespace nb::eviction
