#pragma once
// Closing the loop, step two: stop moving memory off a node when moving has not helped. The
// pressure may come from traffic no round can move (an unmanaged cgroup, page cache, the
// kernel); then every round would move gigabytes for nothing.
//
// The rounds that migrated off the source and have an effect, newest first: when the newest
// backoff_after of them all did not improve, and k is the length of that run (it ends at the
// first improving round), the next round may act only at the newest of them +
// min(min_interval x 2^(k - backoff_after + 1), max_backoff). Rounds without an effect neither
// extend nor end a run. Rounds still in flight (their effect pending) count towards
// backoff_after: once they and the run reach it, the next round waits for their effects.

#include <optional>
#include <string>

#include "core/history.hpp"
#include "core/notes.hpp"
#include "core/policy_config.hpp"

namespace nb::core {

struct Backoff {
  int failed_rounds = 0;  // k: the run of rounds off the source that did not improve
  TimePoint newest;       // the newest of them
  Duration wait{};        // from `newest`
  TimePoint until() const { return newest + wait; }
};

// The back-off that applies to rounds off `source`; nullopt when the run is shorter than
// backoff_after, or back-off is off (backoff_after 0).
std::optional<Backoff> backoff_for(const History& history, NodeId source,
                                   const PolicyConfig& config);

// The rule as a step of the decision: adds a "backoff:" line to `notes` and returns the
// cooldown reason while the back-off holds at `now`.
std::optional<std::string> hold_back(const History& history, NodeId source, TimePoint now,
                                     const PolicyConfig& config, Notes& notes);

// Why a round off `source` must wait: the cool-down after any acted round, then the back-off.
std::optional<std::string> must_wait(const History& history, NodeId source, TimePoint now,
                                     const PolicyConfig& config, Notes& notes);

}  // namespace nb::core
