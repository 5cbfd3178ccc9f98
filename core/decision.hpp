#pragma once
// What the policy decided for one round, in the order the actuator must follow.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/units.hpp"
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

struct Decision {
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
  // Human-readable reasoning, one line per rule, candidate and container (`plan --explain`).
  std::vector<std::string> explanation;
};

}  // namespace nb::core
