#pragma once
// What a finished job does to the round it ran for: the evictions it made, the bytes it moved,
// the outcome, and the counters the metrics show.

#include <nlohmann/json.hpp>
#include <string>

#include "daemon/codec/state_file.hpp"
#include "daemon/service/export/metrics_export.hpp"
#include "daemon/service/running_job.hpp"

namespace nb::service {

// One eviction's mark on the record and the counters; returns the `eviction` event.
nlohmann::json record_eviction(const eviction::EvictionRequest& request,
                               const Result<eviction::EvictionResult>& outcome,
                               const std::string& action, codec::RoundRecord& record,
                               DaemonCounters& counters);

// The report (or the failure) on the record: moved bytes, summary, outcome.
void record_job_result(const JobResult& result, bool cancel_requested, codec::RoundRecord& record,
                       DaemonCounters& counters);

}  // namespace nb::service
