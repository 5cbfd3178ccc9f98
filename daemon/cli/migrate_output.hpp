#pragma once
// What `numabalancerd migrate` shows: a progress bar on a terminal while the job runs, then the
// report as a table.

#include <chrono>

#include "actuator/migration_job.hpp"

namespace nb::cli {

// Bytes moved of the goal, rate and ETA, redrawn in place on stderr; only on a terminal.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled) {}

  void update(const actuator::JobProgress& progress);
  void finish();

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_;
};

void print_table(const actuator::MigrationReport& report);

}  // namespace nb::cli
