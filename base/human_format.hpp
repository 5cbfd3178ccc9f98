#pragma once
// Numbers, sizes and durations as people read them: in explanations, CLI output and messages.
// One implementation, so `plan --explain`, `numabalancerctl` and `numabalancerd migrate` agree.
// Plain ASCII, binary units; no fmt, so that every layer may use it.

#include <string>

#include "base/units.hpp"

namespace nb {

// How a size shows its fraction: prose drops trailing zeros ("128 MiB", "1.25 GiB"); a table
// column keeps one digit so that values line up ("128.0 MiB", "1.2 GiB"); a progress line keeps
// two digits from GiB up ("128.0 MiB", "1.25 GiB") so that a job of many GiB visibly moves.
enum class ByteDigits { trimmed, one_fixed, two_fixed_from_gib };

std::string format_number(double value);  // at most 3 decimals, none trailing: 72, 109.25, 0.625
std::string format_bytes(double bytes, ByteDigits digits = ByteDigits::trimmed);
std::string format_duration(
    Duration duration);                // the largest whole unit: "15 min", "30 s", "250 ms"
std::string format_age(Duration age);  // whole seconds: "45 s ago", "3 s in the future"

}  // namespace nb
