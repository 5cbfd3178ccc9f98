#pragma once
// Rounds are rate-limited: none within min_interval of the last round that acted. The seed only
// recorded rounds that emitted migration advice, so evict-only rounds were never rate-limited;
// here every acted round (migrated or evicted) counts.

#include "core/history.hpp"

namespace nb::core {

// The most recent acted round less than `min_interval` before `now`; nullptr when none.
const Round* cooldown_round(const History& history, TimePoint now, Duration min_interval);

}  // namespace nb::core
