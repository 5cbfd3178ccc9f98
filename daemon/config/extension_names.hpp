#pragma once
// The names config accepts for what other modules register: metrics providers and eviction
// actions. Config does not link those modules; whoever loads a config fills this in from their
// registries (service::extension_names()), so that a new provider or action needs no edit here.

#include <string_view>
#include <vector>

namespace nb::config {

struct ExtensionNames {
  // Each list in the order problems name them. The views point into the registries' static
  // tables.
  std::vector<std::string_view> latency_providers;    // [metrics] latency, "auto" and "none" too
  std::vector<std::string_view> bandwidth_providers;  // [metrics] bandwidth, likewise
  std::vector<std::string_view> eviction_actions;     // [eviction] action
};

}  // namespace nb::config
