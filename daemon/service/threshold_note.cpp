#include "daemon/service/threshold_note.hpp"

#include "daemon/metrics/provider_registry.hpp"

namespace nb::service {
namespace {

constexpr core::LatencyKind kTunedFor = core::LatencyKind::memory_controller_queue;

// "perf: memory_controller_queue, probe: load_to_use": what "auto" may settle on, in its order.
std::string auto_kinds() {
  std::string kinds;
  for (const metrics::ProviderEntry& entry : metrics::providers()) {
    if (entry.tried_by_auto && entry.measures_latency && entry.latency_kind) {
      kinds += kinds.empty() ? "" : ", ";
      kinds += std::string(entry.name) + ": " + std::string(core::to_string(*entry.latency_kind));
    }
  }
  return kinds;
}

}  // namespace

std::optional<std::string> threshold_note(core::ThresholdMode mode, core::LatencyKind kind,
                                          std::string_view provider) {
  if (mode != core::ThresholdMode::absolute || kind == kTunedFor) {
    return std::nullopt;
  }
  return "threshold_mode = \"absolute\" with read latency of kind " +
         std::string(core::to_string(kind)) + " from the " + std::string(provider) +
         " provider: the *_ns thresholds are meant for " + std::string(core::to_string(kTunedFor)) +
         " latency; unless they were tuned for this provider, set threshold_mode = \"relative\" "
         "or \"auto\"";
}

std::optional<std::string> configured_threshold_note(const config::Config& config) {
  const core::ThresholdMode mode = config.policy.threshold_mode;
  const std::string& choice = config.metrics.latency;
  if (mode != core::ThresholdMode::absolute) {
    return std::nullopt;
  }
  if (choice == "auto") {
    return "threshold_mode = \"absolute\" with latency = \"auto\": whether the *_ns thresholds "
           "fit depends on the provider that answers (" +
           auto_kinds() + "); the daemon warns at start-up if its kind is not " +
           std::string(core::to_string(kTunedFor));
  }
  const metrics::ProviderEntry* entry =
      metrics::find_provider(metrics::Metric::read_latency, choice);
  if (entry == nullptr || !entry->latency_kind) {
    return std::nullopt;
  }
  return threshold_note(mode, *entry->latency_kind, entry->name);
}

std::optional<std::string> ThresholdWarning::after_scan(core::ThresholdMode mode,
                                                        const host::ScanReport& report) {
  const host::ProviderReport* latency = report.provider(metrics::Metric::read_latency);
  if (!armed_ || latency == nullptr || !latency->available || !latency->kind) {
    return std::nullopt;
  }
  armed_ = false;
  return threshold_note(mode, *latency->kind, latency->provider);
}

}  // namespace nb::service
