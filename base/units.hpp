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
// Every duration an operator writes (config, CLI, API) is at most a year: a round's timer adds
// one to a steady-clock time in nanoseconds, where "3000000h" overflowed into back-to-back rounds.
inline constexpr Duration kMaxDuration = std::chrono::hours(24 * 366);
inline constexpr const char* kMaxDurationText = "366 days (8784h)";
// Every size is at most 1 PiB, far beyond any node's memory, so sums and products of sizes with
// rates and counts stay inside 64 bits.
inline constexpr Bytes kMaxSize = 1024 * 1024 * kGiB;
inline constexpr const char* kMaxSizeText = "1 PiB (1024TiB)";
// The kernel's largest pid_max (PID_MAX_LIMIT on 64-bit).
inline constexpr long long kMaxPid = 4 * 1024 * 1024;

}  // namespace nb
