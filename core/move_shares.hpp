#pragma once
// Which containers an `equalize` move takes its bytes from, destination by destination.

#include <vector>

#include "base/units.hpp"
#include "core/decision.hpp"
#include "core/history.hpp"
#include "core/node_view.hpp"
#include "core/notes.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"

namespace nb::core {

// A container's share below this is not worth a target.
inline constexpr Bytes kSmallestPiece = kMiB;

// The movable containers' shares of each destination's bytes (the reclaim pool's, or with
// `services` the service pools'): the largest on the source first, none more than its pool kind's
// container_max_bytes, each piece within the container's pool, and none of the bytes of a
// container that a recent round moved from that destination to here (the ping-pong ban, per
// container and direction).
std::vector<ContainerMove> share_out(const Snapshot& snapshot, const NodeView& source,
                                     bool services,
                                     const std::vector<const NodeView*>& destinations,
                                     const std::vector<Bytes>& bytes, const History& history,
                                     TimePoint now, const PolicyConfig& config, Notes& notes);

}  // namespace nb::core
