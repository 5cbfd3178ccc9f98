#pragma once
// Rounds that acted (migrated or evicted), oldest first. Cooldown, ping-pong bans and back-off
// read it.

#include <optional>
#include <string>
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
  // The bandwidth the source lost per GiB moved off it (GB/s), when both snapshots had it and
  // it fell: what a byte of the moved memory carried, to correct the next move's estimate.
  std::optional<double> traffic_per_gib = std::nullopt;
};

// What a round moved of one container to one destination; partial moves make this the unit of
// the ping-pong ban.
struct MovedShare {
  std::string container;
  NodeId to = 0;
  Bytes bytes = 0;

  bool operator==(const MovedShare&) const = default;
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
  // Per container and destination, when the round's driver knows it; empty for rounds recorded
  // before it was kept, which then ban the whole direction.
  std::vector<MovedShare> moved = {};
};

using History = std::vector<Round>;

}  // namespace nb::core
