#include "daemon/service/admin/event_json.hpp"

#include "base/time.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/codec/report_json.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "daemon/codec/state_file.hpp"

namespace nb::service {

using nlohmann::json;

json round_event_json(const rounds::RoundRecord& record, const core::Decision* decision) {
  json event = codec::to_json(record);
  if (decision != nullptr) {
    event["decision"] = codec::to_json(*decision);
  }
  return event;
}

json job_done_event_json(const rounds::RoundRecord& record, std::uint64_t job_id) {
  json event = codec::to_json(record);
  event["job"] = job_id;
  return event;
}

json eviction_json(const EvictionOutcome& eviction) {
  json event{{"container", eviction.container},
             {"cgroup", eviction.cgroup.string()},
             {"action", eviction.action},
             {"node", eviction.node},
             {"ok", eviction.acted}};
  event[eviction.acted ? "detail" : "error"] = eviction.detail;
  return event;
}

json config_reloaded_event_json(const std::vector<std::string>& restart_needed) {
  return {{"restart_needed", restart_needed}};
}

json job_json(const RunningJob& job) {
  return {{"id", job.id},
          {"kind", job.kind},
          {"round", job.round_number},
          {"started", format_rfc3339(job.started)},
          {"source_node", job.source_node},
          {"dest_nodes", job.dest_nodes},
          {"budget", job.budget},
          {"dry_run", job.dry_run},
          {"cancel_requested", job.cancel.load()},
          {"progress", codec::to_json(job.progress)}};
}

json finished_job_json(const FinishedJob& job) {
  return {{"id", job.id},
          {"kind", job.kind},
          {"started", format_rfc3339(job.started)},
          {"finished", format_rfc3339(job.finished)},
          {"round", codec::to_json(job.round)}};
}

json baselines_json(const std::vector<metrics::NodeBaseline>& baselines) {
  json list = json::array();
  for (const auto& baseline : baselines) {
    list.push_back({
        {"node", baseline.node},
        {"read_latency_ns", baseline.read_latency_ns ? json(*baseline.read_latency_ns) : json()},
        {"source",
         baseline.source ? json(std::string(metrics::to_string(*baseline.source))) : json()},
        {"samples", baseline.samples},
        {"samples_needed", baseline.samples_needed},
    });
  }
  return list;
}

}  // namespace nb::service
