#pragma once
// What the policy decided for one round, in the order the actuator must follow.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/units.hpp"
#include "core/strategy.hpp"
#include "core/threshold_mode.hpp"

namespace nb::core {

enum class DecisionStatus { ready, idle, cooldown, no_metrics, calibrating, failed };
enum class PressureLevel { none, grace, force };
enum class BandwidthLevel { high, medium, low };

std::string_view to_string(DecisionStatus status);
std::string_view to_string(PressureLevel level);
std::string_view to_string(BandwidthLevel level);

struct ContainerMove {
  std::string id;
  Bytes bytes_on_source = 0;
  std::vector<NodeId> dest_nodes;  // the decision's destinations within the container's pool
};

struct ContainerEviction {
  std::string id;
  Bytes bytes_on_source = 0;
};

// What `equalize` expects a move to do, node by node (the source first), before it makes it.
struct NodePrediction {
  NodeId node = 0;
  double latency_before_ns = 0;
  double latency_after_ns = 0;
  double bandwidth_before_gbps = 0;
  double bandwidth_after_gbps = 0;
  bool learned_curve = false;  // fitted to the node's readings, not assumed or borrowed

  bool operator==(const NodePrediction&) const = default;
};

struct Prediction {
  std::vector<NodePrediction> nodes;
  double traffic_per_gib = 0;  // GB/s that one GiB moved off the source carries, as assumed
  // The latency of service memory (the supported pools but the reclaim pool), weighted by its
  // bytes on the nodes the move touches; absent when none of them holds any.
  std::optional<double> service_latency_before_ns;
  std::optional<double> service_latency_after_ns;

  bool operator==(const Prediction&) const = default;
};

struct Decision {
  Strategy strategy = Strategy::katalyst;
  DecisionStatus status = DecisionStatus::idle;
  std::string reason;
  PressureLevel level = PressureLevel::none;
  // absolute or relative once pressure was assessed; absent before (no metrics, calibrating...).
  std::optional<ThresholdMode> thresholds;
  std::optional<BandwidthLevel> bandwidth_level;
  bool bandwidth_pressure = false;
  std::optional<NodeId> source_node;
  std::vector<NodeId> dest_nodes;
  std::vector<ContainerMove> migrate;
  std::vector<ContainerEviction> evict;
  Bytes total_bytes = 0;
  double threshold = 0.7;
  std::optional<Prediction> prediction;  // equalize's, when it sized a move
  // Human-readable reasoning, one line per rule, candidate and container (`plan --explain`).
  std::vector<std::string> explanation;
};

}  // namespace nb::core
