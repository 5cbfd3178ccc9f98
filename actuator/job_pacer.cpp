#include "actuator/job_pacer.hpp"

#include <algorithm>

namespace nb::actuator {
namespace {

// The rate limit's burst: how far ahead of the rate a job may run after a pause.
constexpr Clock::duration kBurst = std::chrono::milliseconds(100);
// Longest single sleep while waiting for rate tokens, so cancel and the deadline stay prompt.
constexpr Clock::duration kLongestWait = std::chrono::milliseconds(50);

}  // namespace

JobPacer::JobPacer(const JobOptions& options, MemorySyscalls& syscalls,
                   const std::atomic<bool>& cancel, const JobLedger& ledger,
                   Clock::time_point start)
    : syscalls_(syscalls),
      cancel_(cancel),
      ledger_(ledger),
      deadline_at_(start + options.deadline),
      bucket_(options.rate_limit_mib_per_s, kBurst, start) {}

bool JobPacer::should_stop() {
  if (stop_) {
    return true;
  }
  if (cancel_.load(std::memory_order_relaxed)) {
    stop_ = StopReason::cancelled;
  } else if (syscalls_.now() >= deadline_at_) {
    stop_ = StopReason::deadline;
  } else if (ledger_.budget_met()) {
    stop_ = StopReason::budget_met;
  }
  return stop_.has_value();
}

// The batch's bytes are paid before it moves, so even the last batch of a job keeps the rate.
bool JobPacer::wait_for_tokens(Bytes bytes) {
  if (should_stop()) {
    return false;
  }
  bucket_.take(bytes, syscalls_.now());
  for (;;) {
    auto delay = bucket_.delay(syscalls_.now());
    if (delay <= Clock::duration::zero()) {
      return true;
    }
    syscalls_.sleep_for(std::min(delay, kLongestWait));
    if (should_stop()) {
      return false;
    }
  }
}

}  // namespace nb::actuator
