#pragma once
// Rounds that acted (migrated or evicted), oldest first. Cooldown, ping-pong bans and back-off
// read it.

#include <optional>
#include <vector>

#include "base/units.hpp"

namespace nb::core {

// What a round that migrated did to the latencies, measured once its job had finished and the
// host had settled (round_effect.hpp). "Hot" is the highest latency among the source and the
// destinations; "gap" the source's latency minus the lowest destination's.
struct RoundEffect {
  bool improved = false;
  double hot_before = 0;
  double hot_after = 0;
  double gap_before = 0;
  double gap_after = 0;
};

struct Round {
  TimePoint time;
  std::optional<NodeId> source_node;
  std::vector<NodeId> dest_nodes;
  bool migrated = false;
  bool evicted = false;
  std::optional<RoundEffect> effect;  // absent until measured, or when it could not be
  // Its job is over and its effect still to be measured: the round is in flight, and back-off
  // counts it as one that may not have helped.
  bool effect_pending = false;
};

using History = std::vector<Round>;

}  // namespace nb::core
