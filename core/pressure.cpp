#include "core/pressure.hpp"

#include "core/describe.hpp"

namespace nb::core {

Pressure assess_pressure(const Reading& hottest, const std::vector<Candidate>& candidates,
                         const PolicyConfig& config) {
  const double latency = hottest.read_latency_ns;
  const std::string node = "node " + std::to_string(hottest.id());
  const std::string said = node + " read latency " + format_number(latency) + " ns";
  if (latency > config.force_read_latency_ns) {
    return {PressureLevel::force,
            said + " > force_read_latency_ns " + format_number(config.force_read_latency_ns)};
  }
  if (latency > config.grace_read_latency_ns) {
    return {PressureLevel::grace,
            said + " > grace_read_latency_ns " + format_number(config.grace_read_latency_ns)};
  }
  const std::string below =
      said + " <= grace_read_latency_ns " + format_number(config.grace_read_latency_ns);
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
  if (gap > config.grace_latency_gap_ns) {
    return {PressureLevel::grace, below + gap_text + " > grace_latency_gap_ns " +
                                      format_number(config.grace_latency_gap_ns)};
  }
  return {PressureLevel::none, below + gap_text + " <= grace_latency_gap_ns " +
                                   format_number(config.grace_latency_gap_ns)};
}

}  // namespace nb::core
