#include "core/candidates.hpp"

#include <algorithm>
#include <tuple>

#include "core/describe.hpp"

namespace nb::core {

namespace {

CandidateList collect(const Readings& readings, const Reading& from) {
  CandidateList list;
  list.candidates.reserve(readings.nodes.size());
  for (const Reading& reading : readings.nodes) {
    if (reading.id() == from.id()) {
      continue;
    }
    auto distance = from.node->distance.find(reading.id());
    if (distance == from.node->distance.end()) {
      list.error = "node " + std::to_string(from.id()) + " has no distance to node " +
                   std::to_string(reading.id());
      list.candidates.clear();
      return list;
    }
    list.candidates.push_back(
        Candidate{reading.id(), distance->second, reading.read_latency_ns, reading.bandwidth_gbps});
  }
  return list;
}

}  // namespace

CandidateList candidates_by_distance(const Readings& readings, const Reading& from) {
  CandidateList list = collect(readings, from);
  std::sort(list.candidates.begin(), list.candidates.end(),
            [](const Candidate& a, const Candidate& b) {
              return std::tie(a.distance, a.read_latency_ns, a.id) <
                     std::tie(b.distance, b.read_latency_ns, b.id);
            });
  return list;
}

CandidateList candidates_by_bandwidth(const Readings& readings, const Reading& from) {
  CandidateList list = collect(readings, from);
  std::sort(list.candidates.begin(), list.candidates.end(),
            [](const Candidate& a, const Candidate& b) {
              return std::tie(a.bandwidth_gbps, a.distance, a.id) <
                     std::tie(b.bandwidth_gbps, b.distance, b.id);
            });
  return list;
}

std::string describe_candidates(const std::vector<Candidate>& candidates) {
  if (candidates.empty()) {
    return "none";
  }
  std::string text;
  for (const Candidate& candidate : candidates) {
    if (!text.empty()) {
      text += "; ";
    }
    text += "node " + std::to_string(candidate.id) + " (distance " +
            std::to_string(candidate.distance) + ", " + format_number(candidate.read_latency_ns) +
            " ns, " + format_number(candidate.bandwidth_gbps) + " GB/s)";
  }
  return text;
}

}  // namespace nb::core
