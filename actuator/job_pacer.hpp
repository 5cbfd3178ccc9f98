#pragma once
// When a job may go on: it pays each batch's bytes to the rate limit before the batch moves, and
// it stops for good once cancelled, past its deadline or at its budget. Both are checked between
// batches, never during a call.

#include <atomic>
#include <optional>

#include "actuator/job_ledger.hpp"
#include "actuator/job_options.hpp"
#include "actuator/memory_syscalls.hpp"
#include "actuator/migration_report.hpp"
#include "actuator/token_bucket.hpp"

namespace nb::actuator {

class JobPacer {
 public:
  JobPacer(const JobOptions& options, MemorySyscalls& syscalls, const std::atomic<bool>& cancel,
           const JobLedger& ledger, Clock::time_point start);

  // True once the job must stop; the first reason found stays.
  bool should_stop();
  // Pays `bytes` and sleeps off the debt; false when the job must stop instead.
  bool wait_for_tokens(Bytes bytes);
  void stop(StopReason reason) { stop_ = reason; }
  std::optional<StopReason> stop_reason() const { return stop_; }

 private:
  MemorySyscalls& syscalls_;
  const std::atomic<bool>& cancel_;
  const JobLedger& ledger_;
  Clock::time_point deadline_at_;
  TokenBucket bucket_;
  std::optional<StopReason> stop_;
};

}  // namespace nb::actuator
