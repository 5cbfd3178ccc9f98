#pragma once
// Closing the loop, step one: did a round that moved memory lower the latency it was meant to?
// Measured from the round's own snapshot ("before") and the first snapshot taken effect_delay
// after its job finished ("after"). Before, "hot" is the source's latency, the one the round set
// out to lower; after, it is the highest among the source and its destinations, since moving the
// hot spot from the source onto a destination is no improvement.

#include <string>
#include <variant>
#include <vector>

#include "base/units.hpp"
#include "core/history.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"

namespace nb::core {

struct MeasuredEffect {
  RoundEffect effect;
  double source_latency_before = 0;
  double source_latency_after = 0;
  Bytes bytes_moved = 0;
};

struct RoundMoves {
  NodeId source = 0;
  std::vector<NodeId> destinations;
  Bytes planned_bytes = 0;
  Bytes moved_bytes = 0;
};

// The effect, or why there is none: the job moved nothing or less than migrate_threshold of its
// plan (planned_bytes 0: no plan, as for a manual job without a budget), or a snapshot lacks
// the read latency of the source or of a destination.
using EffectOrReason = std::variant<MeasuredEffect, std::string>;

EffectOrReason measure_effect(const RoundMoves& moves, const Snapshot& before,
                              const Snapshot& after, const PolicyConfig& config);

}  // namespace nb::core
