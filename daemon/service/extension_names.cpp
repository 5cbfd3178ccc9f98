#include "daemon/service/extension_names.hpp"

#include "daemon/eviction/registry.hpp"
#include "daemon/metrics/provider_registry.hpp"

namespace nb::service {

const config::ExtensionNames& extension_names() {
  static const config::ExtensionNames names{
      metrics::provider_choices(metrics::Metric::read_latency),
      metrics::provider_choices(metrics::Metric::bandwidth),
      eviction::action_names(),
  };
  return names;
}

}  // namespace nb::service
