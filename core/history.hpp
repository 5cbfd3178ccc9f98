#pragma once
// Rounds that acted (migrated or evicted), oldest first. Cooldown and ping-pong bans read it.

#include <optional>
#include <vector>

#include "base/units.hpp"

namespace nb::core {

struct Round {
  TimePoint time;
  std::optional<NodeId> source_node;
  std::vector<NodeId> dest_nodes;
  bool migrated = false;
  bool evicted = false;
};

using History = std::vector<Round>;

}  // namespace nb::core
