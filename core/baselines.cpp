#include "core/baselines.hpp"

#include <string>
#include <vector>

#include "core/describe.hpp"

namespace nb::core {

double baseline_of(const Reading& reading) {
  return reading.node->baseline_read_latency_ns.value_or(0);
}

Refused<Ok> require_baselines(const Readings& readings) {
  std::vector<NodeId> missing;
  for (const Reading& reading : readings.nodes) {
    if (baseline_of(reading) <= 0) {
      missing.push_back(reading.id());
    }
  }
  if (missing.empty()) {
    return Ok{};
  }
  return Refusal{DecisionStatus::calibrating,
                 "relative thresholds need a baseline read latency for every node; " +
                     describe_node_set(missing) + (missing.size() == 1 ? " has" : " have") +
                     " none yet"};
}

const Reading& furthest_above_baseline(const Readings& readings) {
  const Reading* furthest = &readings.nodes.front();
  double furthest_ratio = furthest->read_latency_ns / baseline_of(*furthest);
  for (const Reading& reading : readings.nodes) {
    const double ratio = reading.read_latency_ns / baseline_of(reading);
    // Nodes ascend by id, so keeping the first of equals is the lower id.
    if (ratio > furthest_ratio ||
        (ratio == furthest_ratio && reading.read_latency_ns > furthest->read_latency_ns)) {
      furthest = &reading;
      furthest_ratio = ratio;
    }
  }
  return *furthest;
}

}  // namespace nb::core
