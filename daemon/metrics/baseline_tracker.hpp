#pragma once
// Each node's read latency with little load: its baseline, which relative thresholds multiply.
// A configured value ([metrics.baseline] read_latency_ns) always wins. Every other node learns
// its baseline from its own readings: the `quantile` of those of the last `window`, once
// `min_samples` of them exist. A low quantile rather than the minimum, so that one lucky
// reading does not set it; a long window, so that the quiet hours of a day are in it.
//
// Readings only mean something next to readings of the same provider and kind: when either
// changes, everything learned is dropped. No clock inside: every time comes in as an argument.

#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "core/latency_kind.hpp"
#include "daemon/config/config.hpp"

namespace nb::metrics {

// The readings a node keeps (config::kMaxBaselineReadings says why 8640).
inline constexpr std::size_t kMaxReadingsPerNode = config::kMaxBaselineReadings;

struct LatencyReading {
  TimePoint time;
  double ns = 0;

  bool operator==(const LatencyReading&) const = default;
};

enum class BaselineSource { configured, learned };
std::string_view to_string(BaselineSource source);

// What a node's baseline is now. Without one, `samples_needed` says how many more readings the
// node needs before it learns one.
struct NodeBaseline {
  NodeId node = 0;
  std::optional<double> read_latency_ns = std::nullopt;
  std::optional<BaselineSource> source = std::nullopt;
  std::size_t samples = 0;         // readings in the window
  std::size_t samples_needed = 0;  // 0 once learned or configured

  bool operator==(const NodeBaseline&) const = default;
};

// Who measured the readings: another provider or kind is another unit.
struct LatencySource {
  std::string provider;
  core::LatencyKind kind = core::LatencyKind::memory_controller_queue;

  bool operator==(const LatencySource&) const = default;
};

using NodeReadings = std::map<NodeId, std::deque<LatencyReading>>;

// The linear-interpolated quantile q of `values` (sorted or not): with the values sorted, the
// point q x (n - 1) of the way from the first to the last. nullopt for no values.
std::optional<double> interpolated_quantile(std::vector<double> values, double quantile);

class BaselineTracker {
 public:
  explicit BaselineTracker(config::BaselineConfig settings = {},
                           std::size_t max_readings_per_node = kMaxReadingsPerNode);

  // A reload: the new quantile, window, minimum and configured values apply from now on; the
  // readings stay, since the provider did not change.
  void configure(config::BaselineConfig settings);
  const config::BaselineConfig& settings() const { return settings_; }

  // The source of the readings that follow. Returns true when it differs from the one before,
  // which dropped every reading (the first source drops nothing, there being nothing yet).
  bool use_source(const LatencySource& source);
  const std::optional<LatencySource>& source() const { return source_; }

  // One reading of one node. Readings older than `window` before it are dropped, and the
  // oldest beyond the per-node cap.
  void record(NodeId node, TimePoint time, double ns);
  // Drops every reading older than `window` before `now`, of every node: a node that stopped
  // answering does not keep a baseline of the day before forever.
  void prune(TimePoint now);

  NodeBaseline baseline(NodeId node) const;
  // Every node with a configured value or any reading, and each of `nodes`, by id.
  std::vector<NodeBaseline> baselines(const std::vector<NodeId>& nodes = {}) const;

  // For the state file: what was learned, and putting it back after a restart. `restore`
  // replaces everything, then prunes and caps as `record` would.
  const NodeReadings& readings() const { return readings_; }
  void restore(LatencySource source, NodeReadings readings);

 private:
  void trim(std::deque<LatencyReading>& readings, TimePoint now) const;

  config::BaselineConfig settings_;
  std::size_t max_readings_per_node_;
  std::optional<LatencySource> source_;
  NodeReadings readings_;
};

}  // namespace nb::metrics
