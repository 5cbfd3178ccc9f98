#include "core/destinations.hpp"

#include <string>

#include "core/describe.hpp"

namespace nb::core {

std::vector<Candidate> filter_by_gap(const std::vector<Candidate>& ordered, const Reading& source,
                                     PressureLevel level, bool bandwidth_pressure,
                                     const PolicyConfig& config, Notes& notes) {
  std::vector<Candidate> kept;
  const char* metric = bandwidth_pressure ? "bandwidth" : "latency";
  const char* unit = bandwidth_pressure ? " GB/s" : " ns";
  const double source_value = bandwidth_pressure ? source.bandwidth_gbps : source.read_latency_ns;
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    const Candidate& candidate = ordered[i];
    const std::string name = "candidate node " + std::to_string(candidate.id);
    const bool near = candidate.distance <= config.grace_max_distance;
    if (level == PressureLevel::grace && !near) {
      notes.add(name + ": not considered, a grace round stops at distance " +
                std::to_string(candidate.distance) + " > grace_max_distance " +
                std::to_string(config.grace_max_distance) +
                (i + 1 < ordered.size()
                     ? " (with " + std::to_string(ordered.size() - i - 1) + " more beyond)"
                     : ""));
      break;
    }
    const double ratio = near ? config.grace_gap_ratio : config.force_gap_ratio;
    const double value = bandwidth_pressure ? candidate.bandwidth_gbps : candidate.read_latency_ns;
    const double scaled = value * (1 + ratio);
    const bool keep = scaled <= source_value;
    notes.add(name + ": " + (keep ? "kept" : "dropped") + ", " + metric + " " +
              format_number(value) + unit + " x (1 + " +
              (near ? "grace_gap_ratio " : "force_gap_ratio ") + format_number(ratio) +
              ") = " + format_number(scaled) + (keep ? " <= " : " > ") + "node " +
              std::to_string(source.id()) + "'s " + format_number(source_value) + unit +
              " (distance " + std::to_string(candidate.distance) + ")");
    if (keep) {
      kept.push_back(candidate);
    }
  }
  return kept;
}

}  // namespace nb::core
