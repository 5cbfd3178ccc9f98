#pragma once
// Step 5: never send memory back where a recent round took it from. Without this two nodes whose
// latencies alternate would trade the same pages every round.

#include <string>
#include <vector>

#include "core/candidates.hpp"
#include "core/history.hpp"
#include "core/notes.hpp"

namespace nb::core {

// The most recent round within `window` of `now` (inclusive) that migrated memory from `dest` to
// a set of nodes including `source`; nullptr when none.
const Round* ping_pong_ban(const History& history, NodeId source, NodeId dest, TimePoint now,
                           Duration window);

// For strategies that move parts of containers: the bytes of `container` that rounds within
// `window` moved from `dest` to `source` (which may not go back), and the most recent such round
// that does not say what it moved, which bans the direction whole.
Bytes bytes_that_came_from(const History& history, const std::string& container, NodeId source,
                           NodeId dest, TimePoint now, Duration window);
const Round* unitemized_ping_pong_ban(const History& history, NodeId source, NodeId dest,
                                      TimePoint now, Duration window);

std::vector<Candidate> drop_ping_pong(std::vector<Candidate> destinations, NodeId source,
                                      const History& history, TimePoint now, Duration window,
                                      Notes& notes);

}  // namespace nb::core
