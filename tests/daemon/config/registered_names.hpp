#pragma once
// The names the daemon accepts, from the real registries, for tests that load configs.

#include "daemon/config/extension_names.hpp"
#include "daemon/eviction/registry.hpp"
#include "daemon/metrics/provider_registry.hpp"

namespace nb::config {

inline const ExtensionNames& registered_names() {
  static const ExtensionNames names{
      metrics::provider_choices(metrics::Metric::read_latency),
      metrics::provider_choices(metrics::Metric::bandwidth),
      eviction::action_names(),
  };
  return names;
}

}  // namespace nb::config
