#pragma once
// What the daemon's state looks like on the admin socket: the events `watch` streams and the job
// and baseline parts of `status`. The loop builds none of this unless a client asks or watches.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/decision.hpp"
#include "daemon/metrics/baseline_tracker.hpp"
#include "daemon/rounds/round_record.hpp"
#include "daemon/service/job_outcome.hpp"
#include "daemon/service/running_job.hpp"

namespace nb::service {

// `round`: the record, and the decision when the round read the host.
nlohmann::json round_event_json(const rounds::RoundRecord& record, const core::Decision* decision);
// `job_done`: the round's record with the job's id.
nlohmann::json job_done_event_json(const rounds::RoundRecord& record, std::uint64_t job_id);
// `eviction`: {"container", "cgroup", "action", "node", "ok", "detail" | "error"}.
nlohmann::json eviction_json(const EvictionOutcome& eviction);
// `config_reloaded`: {"restart_needed": [...]}.
nlohmann::json config_reloaded_event_json(const std::vector<std::string>& restart_needed);
// The running job as `status` and the job_started / job_progress events show it.
nlohmann::json job_json(const RunningJob& job);
// The newest finished job as `status` shows it under last_job.
nlohmann::json finished_job_json(const FinishedJob& job);
// {"node": 0, "read_latency_ns": 92.1 | null, "source": "configured" | "learned" | null,
//  "samples": 60, "samples_needed": 0}
nlohmann::json baselines_json(const std::vector<metrics::NodeBaseline>& baselines);

}  // namespace nb::service
