#include "core/candidates.hpp"

#include <algorithm>
#include <tuple>

#include "core/describe.hpp"

namespace nb::core {

namespace {

Candidates collect(const Readings& readings, const Reading& from) {
  std::vector<Candidate> list;
  list.reserve(readings.nodes.size());
  for (const Reading& reading : readings.nodes) {
    if (reading.id() == from.id()) {
      continue;
    }
    auto distance = from.node->distance.find(reading.id());
    if (distance == from.node->distance.end()) {
      return Refusal{DecisionStatus::failed, "node " + std::to_string(from.id()) +
                                                 " has no distance to node " +
                                                 std::to_string(reading.id())};
    }
    list.push_back(
        Candidate{reading.id(), distance->second, reading.read_latency_ns, reading.bandwidth_gbps});
  }
  return list;
}

}  // namespace

Candidates candidates_by_distance(const Readings& readings, const Reading& from) {
  Candidates list = collect(readings, from);
  if (!list) {
    return list;
  }
  std::sort(list->begin(), list->end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.distance, a.read_latency_ns, a.id) <
           std::tie(b.distance, b.read_latency_ns, b.id);
  });
  return list;
}

Candidates candidates_by_bandwidth(const Readings& readings, const Reading& from) {
  Candidates list = collect(readings, from);
  if (!list) {
    return list;
  }
  std::sort(list->begin(), list->end(), [](const Candidate& a, const Candidate& b) {
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
