#pragma once
// Step 3: the bandwidth of the pressured node (the max-latency node, or in relative mode the node
// furthest above its baseline) against the busiest node decides where memory leaves from. A latency
// spike on a node that carries little traffic is usually caused by cross-node access from its CPUs
// (or, on some AMD parts, faked); moving its memory would not help.

#include <string>
#include <vector>

#include "core/candidates.hpp"
#include "core/decision.hpp"
#include "core/policy_config.hpp"

namespace nb::core {

struct BandwidthAssessment {
  BandwidthLevel level = BandwidthLevel::high;
  std::string why;
};

BandwidthAssessment assess_bandwidth(const Readings& readings, const Reading& pressured,
                                     const PolicyConfig& config);

struct Regulation {
  bool cancelled = false;  // a grace round on a node that is not high-bandwidth
  std::string why;
  const Reading* source = nullptr;
  bool bandwidth_pressure = false;
  std::vector<Candidate> candidates;  // ordered, before the destination filter
};

// `by_distance` are the candidates seen from the pressured node.
Refused<Regulation> regulate_by_bandwidth(const Readings& readings, const Reading& pressured,
                                          PressureLevel level, BandwidthLevel bandwidth,
                                          std::vector<Candidate> by_distance);

}  // namespace nb::core
