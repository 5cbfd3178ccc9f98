#pragma once
// A round in one line, wherever one line shows it: numabalancerctl's status, history and
// reconcile, and the status text systemd shows for the daemon.
//   #12 2026-12-02T10:00:00.000Z ready (started), node 1 -> 0,2: node 1 under force pressure
//   round 12: ready (started), node 1 -> 0,2: node 1 under force pressure
// The outcome is shown only when it adds to the status; the nodes only once there is a source.
// numabalancerd fills the summary from its round record, numabalancerctl from the admin reply.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"

namespace nb::wire {

struct RoundSummary {
  std::uint64_t number = 0;
  std::optional<TimePoint> time;
  std::string status;
  std::string outcome;
  std::optional<NodeId> source_node;
  std::vector<NodeId> dest_nodes;
  std::string reason;
};

enum class RoundLineStyle {
  numbered_with_time,  // "#12 TIME ..."
  numbered,            // "#12 ..."
  status,              // "round 12: ...", for systemd
};

std::string round_line(const RoundSummary& round, RoundLineStyle style);

}  // namespace nb::wire
