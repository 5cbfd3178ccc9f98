#pragma once
// The `file` provider: per-node values another program writes, as JSON
//   {"time": "2026-12-02T15:04:05Z", "nodes": [{"id": 0, "read_latency_ns": 95.5,
//                                               "bandwidth_gbps": 12.3}, ...]}
// ("time" may also be a number of Unix seconds) or as Prometheus text, one series per node
// labelled node="N" under the configured metric names (numabalancer's own names in either
// spelling, base units or the earlier ns and GB/s: input_names.hpp). This is how Intel PCM,
// malachite or a custom exporter plug in, and how tests inject pressure.
//
// Freshness: JSON data is as old as its "time"; Prometheus text as old as the file's mtime
// (exporters rewrite the whole file) and, when a sample carries a timestamp, that sample as old
// as its timestamp. Older than max_age means stale, so the whole reading is unavailable, with the
// stale sample named; so is a sample timestamped more than a few seconds in the future.
// Values: a negative or non-finite sample fails the reading the same way, named (JSON values are
// checked by MetricSource, which names the node).
// Format "auto" tries JSON first when the file starts with '{' or '[', Prometheus text first
// otherwise; a file that is neither gets both errors.
// Prometheus series typed counter become per-second rates between two versions of the file (a
// bandwidth counter is in bytes, so it becomes GB/s, 1 GB = 1e9 bytes); the first version seen
// and a counter that went backwards give no rate yet. Several bandwidth series for one node
// (per channel, per socket) are added up; a latency metric must be one gauge per node.
//
// Latency kind: external. What the number means is the exporter's business: a memory-controller
// read-queue latency (PCM, malachite) suits the seed's 70/80 ns thresholds; anything else needs
// thresholds calibrated on the exporter's idle and loaded readings (README).

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "daemon/config/config.hpp"
#include "daemon/metrics/prometheus_text.hpp"
#include "daemon/metrics/provider.hpp"

namespace nb::metrics {

class FileProvider final : public Provider {
 public:
  FileProvider(Metric metric, config::FileProviderConfig config);

  std::string_view name() const override { return "file"; }
  Metric metric() const override { return metric_; }
  std::optional<LatencyKind> latency_kind() const override;
  Result<NodeValues> read(TimePoint now) override;

 private:
  struct CounterPoint {
    double value = 0;
    TimePoint time;
  };
  struct CounterState {
    std::optional<CounterPoint> last;
    std::optional<double> rate;
  };

  Result<NodeValues> read_either(const std::string& content, TimePoint now);
  Result<NodeValues> read_json(const nlohmann::json& document, TimePoint now);
  Result<NodeValues> read_prometheus(const PrometheusText& text, TimePoint now);
  Result<TimePoint> modified_time() const;
  Status check_sample(const PrometheusSample& sample, TimePoint now) const;
  Result<NodeValues> counter_rates(const std::map<NodeId, CounterPoint>& points);
  Error problem(const std::string& what) const;

  Metric metric_;
  config::FileProviderConfig config_;
  std::map<NodeId, CounterState> counters_;
};

}  // namespace nb::metrics
