#include "actuator/token_bucket.hpp"

#include <algorithm>
#include <cmath>

namespace nb::actuator {

TokenBucket::TokenBucket(double rate_mib_per_s, Clock::duration burst, Clock::time_point now)
    : bytes_per_second_(rate_mib_per_s * static_cast<double>(kMiB)),
      capacity_(bytes_per_second_ * std::chrono::duration<double>(burst).count()),
      tokens_(capacity_),
      last_(now) {}

void TokenBucket::refill(Clock::time_point now) {
  if (now > last_) {
    tokens_ = std::min(capacity_, tokens_ + bytes_per_second_ *
                                                std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }
}

Clock::duration TokenBucket::delay(Clock::time_point now) {
  if (unlimited()) {
    return Clock::duration::zero();
  }
  refill(now);
  if (tokens_ >= 0) {
    return Clock::duration::zero();
  }
  auto seconds = std::chrono::duration<double>(-tokens_ / bytes_per_second_);
  return std::max(std::chrono::duration_cast<Clock::duration>(seconds), Clock::duration(1));
}

void TokenBucket::take(Bytes bytes, Clock::time_point now) {
  if (unlimited()) {
    return;
  }
  refill(now);
  tokens_ -= static_cast<double>(bytes);
}

}  // namespace nb::actuator
