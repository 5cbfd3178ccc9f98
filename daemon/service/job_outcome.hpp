#pragma once
// What a finished job does to the round it ran for: the evictions it made, the bytes it moved and
// the outcome.

#include <filesystem>
#include <string>

#include "daemon/rounds/round_record.hpp"
#include "daemon/service/running_job.hpp"

namespace nb::service {

// One eviction as it went: the `eviction` event and the evictions counter read it.
struct EvictionOutcome {
  std::string container;
  std::filesystem::path cgroup;
  std::string action;  // as configured
  NodeId node = 0;
  bool acted = false;
  std::string acted_as;  // the action that acted, when one did
  std::string detail;    // what it did, or why it failed
};

// One eviction's mark on the record.
EvictionOutcome record_eviction(const eviction::EvictionRequest& request,
                                const Result<eviction::EvictionResult>& outcome,
                                std::string_view action, rounds::RoundRecord& record);

// The report (or the failure) on the record: moved bytes, shares, summary, outcome.
void record_job_result(const JobResult& result, bool cancel_requested, rounds::RoundRecord& record,
                       std::size_t processes_kept);

}  // namespace nb::service
