#pragma once
// Sizing an `equalize` move: the traffic to shift off the source so that it and its destinations
// reach one loaded latency, what a GiB moved carries, and what the move does to service memory.

#include <optional>
#include <vector>

#include "base/units.hpp"
#include "core/history.hpp"
#include "core/node_view.hpp"
#include "core/notes.hpp"

namespace nb::core {

struct ShiftPlan {
  const NodeView* source = nullptr;
  std::vector<const NodeView*> destinations;
  std::vector<double> shifted;  // GB/s onto each destination
  double common_latency = 0;
};

// The traffic to shift onto each destination so that every node involved reaches one latency:
// the destinations fill up to it by their own curves, so the one with more headroom takes more.
ShiftPlan even_out(const NodeView& source, std::vector<const NodeView*> destinations);

// What a GiB moved off the source is taken to carry. At most the source's bandwidth over its
// movable bytes (as if they carried all of it), so that a move undershoots; at least that
// bandwidth over all its bytes. Within those bounds, the newest measured round off the source
// says what its moved memory carried.
double traffic_per_gib(const NodeView& source, Bytes movable, const History& history, Notes& notes);

// One node of a candidate move: the bandwidth it would serve, the service bytes it would gain
// (negative on the source) and what a moved byte pays for being remote to its CPUs.
struct MovedTo {
  const NodeView* view = nullptr;
  double bandwidth = 0;
  double service_bytes_gained = 0;
  double remote_penalty_ns = 0;
};

// The service memory's latency over `nodes` (weighted by its bytes there, after the move) when
// each node serves the bandwidth given beside it; service bytes that moved pay the remote
// penalty on top of their new node's latency.
std::optional<double> service_latency(const std::vector<MovedTo>& nodes);

}  // namespace nb::core
