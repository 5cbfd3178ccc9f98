#pragma once
// Replays stay replays. Under a host root other than "/" (a captured host, a test's fake one) only
// what the tree holds may answer: a provider that measures the machine it runs on (the probe's
// timed loads, perf counters) would pass this machine's numbers off as the tree's, and a replayed
// 4-node tree would get this machine's node-0 latency and nothing for its other nodes. Such a
// provider stays in the chain, switched off, so that meta.metrics says why it did not answer.
// The file provider counts only when its path is under the root; resctrl reads the tree's files.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/config/config.hpp"
#include "daemon/metrics/provider.hpp"
#include "daemon/metrics/provider_registry.hpp"

namespace nb::metrics {

// True for "/" however written ("/", "//", "/."): the machine the daemon runs on.
bool is_this_machine(const std::filesystem::path& host_root);

// Why `entry` must not answer for the tree under `host_root`; nullopt when it may.
std::optional<std::string> off_under_host_root(const ProviderEntry& entry,
                                               const config::MetricsConfig& config,
                                               const std::filesystem::path& host_root);

// A provider switched off by the replay rule: it never answers, and says why.
class OffProvider final : public Provider {
 public:
  OffProvider(std::string_view name, Metric metric, std::string reason)
      : name_(name), metric_(metric), reason_(std::move(reason)) {}

  std::string_view name() const override { return name_; }
  Metric metric() const override { return metric_; }
  Result<NodeValues> read(TimePoint) override { return make_error(0, reason_); }

 private:
  std::string_view name_;
  Metric metric_;
  std::string reason_;
};

}  // namespace nb::metrics
