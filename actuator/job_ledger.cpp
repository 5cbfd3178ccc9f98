#include "actuator/job_ledger.hpp"

#include <algorithm>

namespace nb::actuator {

void JobLedger::start_target(std::string container_id) {
  container_id_ = std::move(container_id);
  target_placed_ = 0;
}

void JobLedger::record_call(Clock::duration took, ProcessReport& process) {
  ++process.syscalls;
  process.longest_call =
      std::max(process.longest_call, std::chrono::duration_cast<Nanoseconds>(took));
}

void JobLedger::record_moved(NodeId node, Bytes bytes, std::int64_t pages, ProcessReport& process) {
  if (bytes <= 0) {
    return;
  }
  process.bytes_moved_to[node] += bytes;
  process.outcomes.moved += pages;
  moved_ += bytes;
  placed_ += bytes;
  target_placed_ += bytes;
}

void JobLedger::record_already(Bytes bytes, std::int64_t pages, ProcessReport& process) {
  process.bytes_already_on_destination += bytes;
  process.outcomes.already_on_destination += pages;
  placed_ += bytes;
  target_placed_ += bytes;
}

void JobLedger::record_found(Bytes bytes) {
  placed_ += bytes;
  target_placed_ += bytes;
}

void JobLedger::add_error(int code, std::string message, std::optional<int> pid) {
  ReportError error;
  error.pid = pid;
  error.container_id = container_id_;
  error.code = code;
  error.message = std::move(message);
  error.hint = hint_for(code);
  report_.errors.push_back(std::move(error));
}

Bytes JobLedger::remaining(Bytes target_cap) const {
  return std::min(budget_ - placed_, target_cap - target_placed_);
}

JobProgress JobLedger::progress(Nanoseconds elapsed) const {
  JobProgress progress;
  progress.moved = moved_;
  progress.placed = placed_;
  progress.goal = report_.goal;
  progress.elapsed = elapsed;
  double seconds = std::chrono::duration<double>(elapsed).count();
  progress.rate_mib_per_s =
      seconds > 0 ? static_cast<double>(moved_) / static_cast<double>(kMiB) / seconds : 0;
  progress.container_id = container_id_;
  progress.pid = pid_;
  return progress;
}

}  // namespace nb::actuator
