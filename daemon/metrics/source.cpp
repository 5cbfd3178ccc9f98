#include "daemon/metrics/source.hpp"

#include <algorithm>
#include <exception>

#include "core/metric_value.hpp"
#include "daemon/metrics/provider_registry.hpp"
#include "daemon/metrics/replay_rule.hpp"

namespace nb::metrics {
namespace {

std::string join_reasons(const std::vector<std::string>& reasons) {
  std::string joined;
  for (const auto& reason : reasons) {
    if (!joined.empty()) {
      joined += "; ";
    }
    joined += reason;
  }
  return joined;
}

}  // namespace

std::unique_ptr<MetricSource> MetricSource::create(Metric metric,
                                                   const config::MetricsConfig& config,
                                                   const std::filesystem::path& host_root,
                                                   const std::vector<core::Node>& topology) {
  const std::string& choice = metric == Metric::read_latency ? config.latency : config.bandwidth;
  std::vector<const ProviderEntry*> entries;
  if (choice == "auto") {
    for (const ProviderEntry& entry : providers()) {
      if (entry.tried_by_auto && entry.measures(metric)) {
        entries.push_back(&entry);
      }
    }
  } else if (const ProviderEntry* entry = find_provider(metric, choice)) {
    entries.push_back(entry);
  }
  std::vector<std::unique_ptr<Provider>> chain;
  for (const ProviderEntry* entry : entries) {
    if (auto off = off_under_host_root(*entry, config, host_root)) {
      chain.push_back(std::make_unique<OffProvider>(entry->name, metric, std::move(*off)));
    } else {
      chain.push_back(entry->make(metric, config, host_root, topology));
    }
  }
  std::string empty_reason = "disabled by config";
  if (choice != "none" && chain.empty()) {
    empty_reason = "unknown " + std::string(to_string(metric)) + " provider \"" + choice + "\"";
  }
  std::vector<NodeId> nodes;
  for (const auto& node : topology) {
    nodes.push_back(node.id);
  }
  return std::make_unique<MetricSource>(metric, std::move(chain), std::move(nodes),
                                        std::move(empty_reason));
}

MetricSource::MetricSource(Metric metric, std::vector<std::unique_ptr<Provider>> chain,
                           std::vector<NodeId> topology_nodes, std::string empty_reason)
    : metric_(metric),
      chain_(std::move(chain)),
      topology_nodes_(std::move(topology_nodes)),
      empty_reason_(std::move(empty_reason)) {}

MetricSource::~MetricSource() = default;

MetricReading MetricSource::read_provider(Provider& provider, TimePoint now, std::string& reason) {
  MetricReading reading;
  reading.kind = provider.latency_kind();
  Result<NodeValues> raw = NodeValues{};
  try {
    raw = provider.read(now);
  } catch (const std::exception& e) {
    raw = make_error(0, std::string("internal error: ") + e.what());
  }
  if (!raw) {
    reason = std::string(provider.name()) + ": " + raw.error().message();
    return reading;
  }
  // A node outside the topology cannot be acted on and a zero is not a measurement: both are
  // left out. A negative or non-finite value is a broken provider, so none of its values count.
  for (const auto& [node, value] : *raw) {
    bool known =
        std::find(topology_nodes_.begin(), topology_nodes_.end(), node) != topology_nodes_.end();
    if (!known) {
      continue;
    }
    if (auto problem = core::metric_value_problem(value)) {
      reason = std::string(provider.name()) + ": node " + std::to_string(node) + " " +
               std::string(field_name(metric_)) + ": " + *problem;
      reading.values.clear();
      return reading;
    }
    if (value > 0) {
      reading.values[node] = value;
    }
  }
  if (reading.values.empty()) {
    reason = std::string(provider.name()) +
             ": no node of the topology has a positive value (all zero, missing or unknown)";
    return reading;
  }
  reading.provider = std::string(provider.name());
  return reading;
}

MetricReading MetricSource::read(TimePoint now) {
  if (chain_.empty()) {
    MetricReading disabled;
    disabled.unavailable_reason = empty_reason_;
    return disabled;
  }
  if (settled_ != nullptr) {
    std::string reason;
    auto reading = read_provider(*settled_, now, reason);
    reading.unavailable_reason = reading.available() ? settled_reasons_ : reason;
    return reading;
  }
  std::vector<std::string> reasons;
  for (auto& provider : chain_) {
    std::string reason;
    auto reading = read_provider(*provider, now, reason);
    if (reading.available()) {
      settled_ = provider.get();
      settled_reasons_ = join_reasons(reasons);
      reading.unavailable_reason = settled_reasons_;
      return reading;
    }
    reasons.push_back(std::move(reason));
  }
  MetricReading unavailable;
  unavailable.unavailable_reason = join_reasons(reasons);
  if (chain_.size() == 1) {
    unavailable.kind = chain_.front()->latency_kind();
  }
  return unavailable;
}

}  // namespace nb::metrics
