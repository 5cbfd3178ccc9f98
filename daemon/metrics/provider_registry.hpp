#pragma once
// Every metrics provider, by the name [metrics] latency and bandwidth give it: which metrics it
// measures, whether "auto" tries it, its own config section and how to make it. MetricSource
// builds its chain from here, and config validation accepts exactly these names (through
// config::ExtensionNames), so a new provider is its file plus a row in provider_registry.cpp.

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/snapshot.hpp"
#include "daemon/config/config.hpp"
#include "daemon/metrics/provider.hpp"

namespace nb::metrics {

using MakeProvider = std::unique_ptr<Provider> (*)(Metric metric,
                                                   const config::MetricsConfig& config,
                                                   const std::filesystem::path& host_root,
                                                   const std::vector<core::Node>& topology);

struct ProviderEntry {
  std::string_view name;
  bool measures_latency = false;
  bool measures_bandwidth = false;
  bool tried_by_auto = false;       // in registry order; the first that answers is kept
  std::string_view config_section;  // "metrics.perf"
  MakeProvider make = nullptr;
  // What its read-latency numbers measure; unset for a bandwidth-only provider. Known from the
  // name alone, so --check-config can say it without making the provider.
  std::optional<LatencyKind> latency_kind;
  // It measures the machine it runs on (perf_event_open, timed loads), not files under the host
  // root: under another root it would pass this machine's numbers off as the tree's
  // (replay_rule.hpp).
  bool measures_this_machine = false;

  bool measures(Metric metric) const {
    return metric == Metric::read_latency ? measures_latency : measures_bandwidth;
  }
};

std::span<const ProviderEntry> providers();

// The provider of `metric` called `name`; nullptr when there is none.
const ProviderEntry* find_provider(Metric metric, std::string_view name);

// What [metrics] latency or bandwidth accepts: "auto", the providers of `metric` in registry
// order, "none".
std::vector<std::string_view> provider_choices(Metric metric);

}  // namespace nb::metrics
