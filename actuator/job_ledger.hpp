#pragma once
// A job's accounts: what moved where, what was found already in place, every call and error,
// and what is left of the budget and of the current target's cap. The report it fills is the
// job's result; the progress it gives is what the caller sees while the job runs.

#include <cstdint>
#include <optional>
#include <string>

#include "actuator/job_options.hpp"
#include "actuator/memory_syscalls.hpp"
#include "actuator/migration_report.hpp"

namespace nb::actuator {

class JobLedger {
 public:
  explicit JobLedger(Bytes budget) : budget_(budget) {}

  MigrationReport& report() { return report_; }
  const MigrationReport& report() const { return report_; }

  // The target and the process being worked on, named by errors and progress.
  void start_target(std::string container_id);
  void start_process(int pid) { pid_ = pid; }

  void record_call(Clock::duration took, ProcessReport& process);
  // Bytes moved to `node` (nothing when `bytes` is not positive), `pages` base pages of them.
  void record_moved(NodeId node, Bytes bytes, std::int64_t pages, ProcessReport& process);
  void record_already(Bytes bytes, std::int64_t pages, ProcessReport& process);
  // A dry run's pages: nothing moves, yet they count against the budget as if they had.
  void record_found(Bytes bytes);
  void add_error(int code, std::string message, std::optional<int> pid);

  Bytes moved() const { return moved_; }
  Bytes placed() const { return placed_; }
  bool budget_met() const { return placed_ >= budget_; }
  // What may still be placed: the budget's rest or the current target's, whichever is less.
  Bytes remaining(Bytes target_cap) const;

  JobProgress progress(Nanoseconds elapsed) const;

 private:
  Bytes budget_;
  MigrationReport report_;
  Bytes moved_ = 0;
  Bytes placed_ = 0;
  Bytes target_placed_ = 0;
  std::string container_id_;
  int pid_ = 0;
};

}  // namespace nb::actuator
