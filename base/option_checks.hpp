#pragma once
// Checks for the numeric options of numabalancerctl and numabalancerd that say what they want in
// words: CLI11's own range checks print "not in range 0.000000 to 1797693…" for a pid of "abc",
// and let NaN through.

#include <CLI/CLI.hpp>

namespace nb {

// The longest --timeout or --interval: a day; longer waits are better served by `watch`.
inline constexpr double kLongestWaitSeconds = 86400;

// A whole number greater than 0 (a pid, a row count).
CLI::Validator positive_whole_number();
// A whole number from 0 (a node id).
CLI::Validator node_number();
// Seconds: a finite number greater than 0, at most kLongestWaitSeconds.
CLI::Validator seconds_up_to_a_day();
// A rate in MiB/s: a finite number from 0.
CLI::Validator mib_per_second();

}  // namespace nb
