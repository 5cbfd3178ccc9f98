#pragma once
// Step 4: which candidates are enough better than the source to be worth the move.

#include <vector>

#include "core/candidates.hpp"
#include "core/notes.hpp"
#include "core/policy_config.hpp"

namespace nb::core {

// Keeps a candidate whose latency (bandwidth under bandwidth pressure) times (1 + gap ratio) is at
// most the source's; near candidates use grace_gap_ratio, far ones force_gap_ratio. A grace round
// stops at the first candidate beyond grace_max_distance. Adds a line per candidate to `notes`.
std::vector<Candidate> filter_by_gap(const std::vector<Candidate>& ordered, const Reading& source,
                                     PressureLevel level, bool bandwidth_pressure,
                                     const PolicyConfig& config, Notes& notes);

}  // namespace nb::core
