#pragma once
// RFC 3339 times as exporters write them: "2026-12-02T15:04:05Z", with optional fractional
// seconds and a numeric offset ("+01:00") instead of Z.

#include <optional>
#include <string>
#include <string_view>

#include "base/units.hpp"

namespace nb::metrics {

std::optional<TimePoint> parse_rfc3339(std::string_view text);

// UTC with millisecond precision, for messages.
std::string format_rfc3339(TimePoint time);

}  // namespace nb::metrics
