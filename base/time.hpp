#pragma once
// RFC 3339 time, the one text form of a time point: snapshots, the state file, the audit log, the
// admin protocol and the files metrics exporters write.

#include <string>
#include <string_view>

#include "base/result.hpp"
#include "base/units.hpp"

namespace nb {

// "2026-12-02T10:00:00Z", "…t…z", a space for the T, fractions to the nanosecond and numeric
// offsets ("+02:00"). Years outside 1970-2200 are refused: the nanosecond clock overflows there.
// The error quotes the text and says what RFC 3339 expects.
Result<TimePoint> parse_rfc3339(std::string_view text);

// UTC, with as many fraction digits as the time needs (none for a whole second), so that
// parsing the text gives the same time point back: "2026-12-02T10:00:01.5Z".
std::string format_rfc3339(TimePoint time);

// UTC with exactly three fraction digits, for messages that line up: "2026-12-02T10:00:01.500Z".
std::string format_rfc3339_millis(TimePoint time);

}  // namespace nb
