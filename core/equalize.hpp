#pragma once
// The `equalize` strategy: move just enough batch memory (the reclaim pool's) off the node with
// the highest loaded latency that its latency comes within equalize_deadband of its
// destinations', sized from each node's load curve (load_curve.hpp), and only when the move is
// predicted not to slow service memory (every other supported pool's). See README "How the
// policy decides".
//
// Traffic per byte: the daemon cannot see which container carries a node's traffic, so a move
// assumes the source's batch memory carries all of it (bandwidth / batch bytes). That is the
// most a byte can carry, so a move undershoots rather than overshoots, and the next round moves
// the rest once the readings show it.

#include "core/decide.hpp"
#include "core/decision.hpp"
#include "core/history.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"

namespace nb::core {

Decision decide_equalize(const Snapshot& snapshot, const PolicyConfig& config,
                         const History& history, TimePoint now, const DecideOptions& options);

}  // namespace nb::core
