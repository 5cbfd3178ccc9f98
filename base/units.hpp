#pragma once
// Units the whole project shares. Time is a value passed in; core never reads a clock.

#include <chrono>
#include <cstdint>

namespace nb {

using Bytes = std::int64_t;
using NodeId = int;
using TimePoint = std::chrono::system_clock::time_point;
using Duration = std::chrono::milliseconds;

inline constexpr Bytes kKiB = 1024;
inline constexpr Bytes kMiB = 1024 * kKiB;
inline constexpr Bytes kGiB = 1024 * kMiB;

// A migration rate limit in MiB/s is 0 (unlimited) or within these: below 1 MiB/s the pacing
// sleeps in nanoseconds between pages; above 1 TiB/s no machine moves pages.
inline constexpr double kMinRateMiBPerS = 1;
inline constexpr double kMaxRateMiBPerS = 1024 * 1024;
inline constexpr const char* kRateLimitRule = "0 (unlimited) or from 1 to 1048576";
// Config, CLI and API all hold a rate limit to this one rule; NaN fails it.
constexpr bool rate_limit_in_range(double mib_per_s) {
  return mib_per_s == 0 || (mib_per_s >= kMinRateMiBPerS && mib_per_s <= kMaxRateMiBPerS);
}
// The kernel's largest pid_max (PID_MAX_LIMIT on 64-bit).
inline constexpr long long kMaxPid = 4 * 1024 * 1024;

}  // namespace nb
