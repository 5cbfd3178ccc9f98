#pragma once
// The entry point for one metric: the configured provider, or for "auto" the chain of providers
// tried in registry order (provider_registry.hpp; latency: perf, then probe; bandwidth: perf,
// then resctrl). Under a host root other than "/", providers that would measure this machine
// rather than the tree are switched off and say so (replay_rule.hpp). The snapshot code
// calls read() once per round and copies the values into core::Node; `provider` and
// `unavailable_reason` go into the snapshot's meta object.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "core/snapshot.hpp"
#include "daemon/config/config.hpp"
#include "daemon/metrics/provider.hpp"

namespace nb::metrics {

struct MetricReading {
  // Only measured nodes appear; never a zero, a negative or a non-finite value (one of the last
  // two makes the reading unavailable, naming the node and the value).
  NodeValues values;
  // The provider that answered ("file", "probe", "perf", "resctrl"); empty when none did.
  std::string provider;
  // Empty values: why the metric is unavailable. Values present under "auto": why each provider
  // tried before the one that answered was unavailable ("perf: ..."), empty if the first answered.
  std::string unavailable_reason;
  // What the latency values mean (thresholds differ per kind); unset for bandwidth, and for latency
  // when no provider has been settled on yet.
  std::optional<LatencyKind> kind;

  bool available() const { return !values.empty(); }
};

class MetricSource {
 public:
  // The provider named by config.latency or config.bandwidth ("auto", "perf", "none", ...); a
  // name outside the config's list makes a source that is always unavailable and says so.
  static std::unique_ptr<MetricSource> create(Metric metric, const config::MetricsConfig& config,
                                              const std::filesystem::path& host_root,
                                              const std::vector<core::Node>& topology);

  // A chain built from providers already made; create() uses it and tests use it with fakes.
  // An empty chain is the "none" source.
  MetricSource(Metric metric, std::vector<std::unique_ptr<Provider>> chain,
               std::vector<NodeId> topology_nodes, std::string empty_reason);
  ~MetricSource();
  MetricSource(const MetricSource&) = delete;
  MetricSource& operator=(const MetricSource&) = delete;

  Metric metric() const { return metric_; }

  // Never throws. The first provider that answers is kept for the life of the source, because
  // latency kinds are not interchangeable: a later failure makes the metric unavailable rather
  // than silently switching to a provider whose numbers need other thresholds.
  MetricReading read(TimePoint now);

 private:
  MetricReading read_provider(Provider& provider, TimePoint now, std::string& reason);

  Metric metric_;
  std::vector<std::unique_ptr<Provider>> chain_;
  std::vector<NodeId> topology_nodes_;
  std::string empty_reason_;
  Provider* settled_ = nullptr;
  std::string settled_reasons_;  // why the providers before the settled one were unavailable
};

}  // namespace nb::metrics
