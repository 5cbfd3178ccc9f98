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

}  // namespace nb
