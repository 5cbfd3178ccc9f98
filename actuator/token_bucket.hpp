#pragma once
// The migration rate limit: migrating pages costs the memory bandwidth that is already under
// pressure. A token bucket in bytes that may go into debt, so a batch larger than the burst still
// passes and the long-run rate holds. The clock is the caller's (tests inject time).

#include <chrono>

#include "actuator/memory_syscalls.hpp"
#include "base/units.hpp"

namespace nb::actuator {

class TokenBucket {
 public:
  // rate_mib_per_s <= 0 means unlimited. The bucket starts full.
  TokenBucket(double rate_mib_per_s, Clock::duration burst, Clock::time_point now);

  bool unlimited() const { return bytes_per_second_ <= 0; }
  // Spends the bytes, going into debt if needed.
  void take(Bytes bytes, Clock::time_point now);
  // How long until the debt is repaid; zero when there is none.
  Clock::duration delay(Clock::time_point now);

 private:
  void refill(Clock::time_point now);

  double bytes_per_second_;
  double capacity_;
  double tokens_;
  Clock::time_point last_;
};

}  // namespace nb::actuator
