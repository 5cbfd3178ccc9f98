#pragma once
// The nodes memory could move to, seen from one node: every other node with its distance from
// that node and its metrics. The seed built this from the raw sysfs distance row, which includes
// the node itself at 10, so the source ranked first as its own nearest "candidate"; here the
// source is never a candidate.

#include <string>
#include <vector>

#include "core/readings.hpp"

namespace nb::core {

struct Candidate {
  NodeId id = 0;
  int distance = 0;
  double read_latency_ns = 0;
  double bandwidth_gbps = 0;
};

// Refused (failed) when a node is missing from `from`'s distance row.
using Candidates = Refused<std::vector<Candidate>>;

// Nearest first; then lowest latency; then lowest id, so equal rows order the same every round.
Candidates candidates_by_distance(const Readings& readings, const Reading& from);

// Lowest bandwidth first; then nearest; then lowest id.
Candidates candidates_by_bandwidth(const Readings& readings, const Reading& from);

std::string describe_candidates(const std::vector<Candidate>& candidates);

}  // namespace nb::core
