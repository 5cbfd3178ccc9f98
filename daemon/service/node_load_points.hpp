#pragma once
// Each node's bandwidth and latency pairs over past rounds, for `equalize`'s load curves
// (core/load_curve.hpp). Kept in memory only: after a restart the curves are learned again from
// the rounds that follow, and until then a move borrows the shape of the curve through the
// source's one reading.

#include <map>

#include "base/units.hpp"
#include "core/load_curve.hpp"
#include "core/snapshot.hpp"

namespace nb::service {

class NodeLoadPoints {
 public:
  // Records the reading of every node that has both metrics, then sets each node's load_points
  // to what its node has kept (this reading included).
  void observe(core::Snapshot& snapshot);
  // Readings of another provider or kind do not lie on the same curve.
  void clear() { points_.clear(); }

 private:
  std::map<NodeId, core::LoadPoints> points_;
};

}  // namespace nb::service
