#include "daemon/metrics/provider_registry.hpp"

#include "daemon/metrics/clock.hpp"
#include "daemon/metrics/file_provider.hpp"
#include "daemon/metrics/perf_events.hpp"
#include "daemon/metrics/perf_provider.hpp"
#include "daemon/metrics/probe_provider.hpp"
#include "daemon/metrics/resctrl_provider.hpp"

namespace nb::metrics {
namespace {

std::unique_ptr<Provider> make_perf(Metric metric, const config::MetricsConfig& config,
                                    const std::filesystem::path& host_root,
                                    const std::vector<core::Node>& topology) {
  return std::make_unique<PerfProvider>(metric, host_root, topology, config.perf,
                                        make_system_perf_events(), steady_clock());
}

std::unique_ptr<Provider> make_probe(Metric, const config::MetricsConfig& config,
                                     const std::filesystem::path&,
                                     const std::vector<core::Node>& topology) {
  return std::make_unique<ProbeProvider>(topology, config.probe);
}

std::unique_ptr<Provider> make_resctrl(Metric, const config::MetricsConfig& config,
                                       const std::filesystem::path& host_root,
                                       const std::vector<core::Node>& topology) {
  return std::make_unique<ResctrlProvider>(host_root, topology, config.resctrl, steady_clock());
}

std::unique_ptr<Provider> make_file(Metric metric, const config::MetricsConfig& config,
                                    const std::filesystem::path&, const std::vector<core::Node>&) {
  return std::make_unique<FileProvider>(metric, config.file);
}

}  // namespace

std::span<const ProviderEntry> providers() {
  // The order is the order "auto" tries them in, and the order of the names in problems.
  static const ProviderEntry entries[] = {
      {"perf", true, true, true, "metrics.perf", make_perf, LatencyKind::memory_controller_queue,
       true},
      {"probe", true, false, true, "metrics.probe", make_probe, LatencyKind::load_to_use, true},
      // resctrl reads its counters from files under the host root, so a tree's own count.
      {"resctrl", false, true, true, "metrics.resctrl", make_resctrl, std::nullopt, false},
      {"file", true, true, false, "metrics.file", make_file, LatencyKind::external, false},
  };
  return entries;
}

const ProviderEntry* find_provider(Metric metric, std::string_view name) {
  for (const ProviderEntry& entry : providers()) {
    if (entry.name == name && entry.measures(metric)) {
      return &entry;
    }
  }
  return nullptr;
}

std::vector<std::string_view> provider_choices(Metric metric) {
  std::vector<std::string_view> choices{"auto"};
  for (const ProviderEntry& entry : providers()) {
    if (entry.measures(metric)) {
      choices.push_back(entry.name);
    }
  }
  choices.push_back("none");
  return choices;
}

}  // namespace nb::metrics
