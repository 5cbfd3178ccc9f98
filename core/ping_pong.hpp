#pragma once
// Step 5: never send memory back where a recent round took it from. Without this two nodes whose
// latencies alternate would trade the same pages every round.

#include <vector>

#include "core/candidates.hpp"
#include "core/history.hpp"
#include "core/notes.hpp"

namespace nb::core {

// The most recent round within `window` of `now` (inclusive) that migrated memory from `dest` to
// a set of nodes including `source`; nullptr when none.
const Round* ping_pong_ban(const History& history, NodeId source, NodeId dest, TimePoint now,
                           Duration window);

std::vector<Candidate> drop_ping_pong(std::vector<Candidate> destinations, NodeId source,
                                      const History& history, TimePoint now, Duration window,
                                      Notes& notes);

}  // namespace nb::core
