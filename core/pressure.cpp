#include "core/pressure.hpp"

#include "core/baselines.hpp"
#include "core/describe.hpp"

namespace nb::core {

namespace {

// One threshold and how the explanation names it: "force_read_latency_ns 80", or
// "baseline 131 ns x force_latency_ratio 1.5 = 196.5 ns".
struct Threshold {
  double value = 0;
  std::string text;
};

struct Thresholds {
  Threshold force;
  Threshold grace;
  Threshold gap;
  std::string suffix;  // what kind and mode the numbers are, in relative mode
};

Thresholds absolute_thresholds(const PolicyConfig& config) {
  auto named = [](const char* key, double value) {
    return Threshold{value, std::string(key) + " " + format_number(value)};
  };
  return {named("force_read_latency_ns", config.force_read_latency_ns),
          named("grace_read_latency_ns", config.grace_read_latency_ns),
          named("grace_latency_gap_ns", config.grace_latency_gap_ns), ""};
}

Thresholds relative_thresholds(const PolicyConfig& config, double baseline, LatencyKind kind) {
  auto times = [baseline](const char* key, double ratio) {
    const double value = baseline * ratio;
    return Threshold{value, "baseline " + format_number(baseline) + " ns x " + key + " " +
                                format_number(ratio) + " = " + format_number(value) + " ns"};
  };
  return {times("force_latency_ratio", config.force_latency_ratio),
          times("grace_latency_ratio", config.grace_latency_ratio),
          times("grace_latency_gap_ratio", config.grace_latency_gap_ratio),
          " (" + std::string(to_string(kind)) + ", relative thresholds)"};
}

Pressure judge(const Reading& pressured, const std::vector<Candidate>& candidates,
               const PolicyConfig& config, const Thresholds& limits) {
  const double latency = pressured.read_latency_ns;
  const std::string node = "node " + std::to_string(pressured.id());
  const std::string said = node + " read latency " + format_number(latency) + " ns";
  if (latency > limits.force.value) {
    return {PressureLevel::force, said + " > " + limits.force.text};
  }
  if (latency > limits.grace.value) {
    return {PressureLevel::grace, said + " > " + limits.grace.text};
  }
  const std::string below = said + " <= " + limits.grace.text;
  if (candidates.empty()) {
    return {PressureLevel::none, below + "; no other node to compare with"};
  }
  // A node much slower than its nearest neighbour is worth relieving even below the thresholds.
  const Candidate& nearest = candidates.front();
  const std::string neighbour = "nearest node " + std::to_string(nearest.id);
  if (nearest.distance > config.grace_max_distance) {
    return {PressureLevel::none, below + "; " + neighbour + " is at distance " +
                                     std::to_string(nearest.distance) + " > grace_max_distance " +
                                     std::to_string(config.grace_max_distance)};
  }
  const double gap = latency - nearest.read_latency_ns;
  const std::string gap_text = "; latency gap to " + neighbour + " (" +
                               format_number(nearest.read_latency_ns) + " ns) is " +
                               format_number(gap) + " ns";
  if (gap > limits.gap.value) {
    return {PressureLevel::grace, below + gap_text + " > " + limits.gap.text};
  }
  return {PressureLevel::none, below + gap_text + " <= " + limits.gap.text};
}

}  // namespace

Pressure assess_pressure(const Reading& pressured, const std::vector<Candidate>& candidates,
                         const PolicyConfig& config, ThresholdMode mode, LatencyKind kind) {
  const Thresholds limits = mode == ThresholdMode::relative
                                ? relative_thresholds(config, baseline_of(pressured), kind)
                                : absolute_thresholds(config);
  Pressure pressure = judge(pressured, candidates, config, limits);
  pressure.why += limits.suffix;
  return pressure;
}

}  // namespace nb::core
