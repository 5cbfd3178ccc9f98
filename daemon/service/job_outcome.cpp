#include "daemon/service/job_outcome.hpp"

#include <spdlog/spdlog.h>

#include "daemon/codec/report_json.hpp"
#include "daemon/codec/report_summary.hpp"
#include "daemon/service/round_history.hpp"

namespace nb::service {

nlohmann::json record_eviction(const eviction::EvictionRequest& request,
                               const Result<eviction::EvictionResult>& outcome,
                               const std::string& action, codec::RoundRecord& record,
                               DaemonCounters& counters) {
  nlohmann::json event{{"container", request.container_id},
                       {"cgroup", request.cgroup_dir.string()},
                       {"action", action},
                       {"node", request.node}};
  if (outcome && outcome->acted) {
    record.evicted.push_back(request.container_id);
    ++counters.evictions[outcome->action];
    event["ok"] = true;
    event["detail"] = outcome->detail;
    spdlog::warn("evicted {} ({}): {}", request.container_id, outcome->action, outcome->detail);
  } else {
    event["ok"] = false;
    event["error"] = outcome ? outcome->detail : outcome.error().message();
    spdlog::error("eviction of {} failed: {}", request.container_id,
                  event["error"].get<std::string>());
  }
  return event;
}

void record_job_result(const JobResult& result, bool cancel_requested, codec::RoundRecord& record,
                       DaemonCounters& counters) {
  if (result.report) {
    const auto& report = *result.report;
    counters.add_report(report);
    record.moved_bytes = report.bytes_moved();
    record.migrated = !report.dry_run && report.bytes_moved() > 0;
    if (record.migrated) {
      for (const actuator::ContainerReport& container : report.containers) {
        for (const auto& [to, bytes] : container.bytes_moved_to()) {
          if (bytes > 0) {
            record.moved_shares.push_back(core::MovedShare{container.id, to, bytes});
          }
        }
      }
    }
    record.report = codec::summarize(report);
    record.full_report = codec::to_json(report, kProcessesPerContainerKept);
    if (report.stop_reason == actuator::StopReason::cancelled) {
      record.outcome = codec::RoundOutcome::cancelled;
    } else {
      record.outcome =
          report.threshold_met ? codec::RoundOutcome::done : codec::RoundOutcome::partial;
    }
  } else if (result.failure) {
    record.outcome = codec::RoundOutcome::failed;
    record.reason = "the job failed: " + result.failure->message();
  } else {
    record.outcome = cancel_requested ? codec::RoundOutcome::cancelled : codec::RoundOutcome::done;
  }
}

}  // namespace nb::service
