#include "daemon/service/job_outcome.hpp"

#include "daemon/codec/report_json.hpp"
#include "daemon/codec/report_summary.hpp"

namespace nb::service {

EvictionOutcome record_eviction(const eviction::EvictionRequest& request,
                                const Result<eviction::EvictionResult>& outcome,
                                std::string_view action, rounds::RoundRecord& record) {
  EvictionOutcome result;
  result.container = request.container_id;
  result.cgroup = request.cgroup_dir;
  result.action = std::string(action);
  result.node = request.node;
  if (outcome && outcome->acted) {
    record.evicted.push_back(request.container_id);
    result.acted = true;
    result.acted_as = outcome->action;
    result.detail = outcome->detail;
  } else {
    result.detail = outcome ? outcome->detail : outcome.error().message();
  }
  return result;
}

void record_job_result(const JobResult& result, bool cancel_requested, rounds::RoundRecord& record,
                       std::size_t processes_kept) {
  if (result.report) {
    const auto& report = *result.report;
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
    record.report = rounds::summarize(report);
    record.full_report = rounds::keep_busiest(report, processes_kept);
    if (report.stop_reason == actuator::StopReason::cancelled) {
      record.outcome = rounds::RoundOutcome::cancelled;
    } else {
      record.outcome =
          report.threshold_met ? rounds::RoundOutcome::done : rounds::RoundOutcome::partial;
    }
  } else if (result.failure) {
    record.outcome = rounds::RoundOutcome::failed;
    record.reason = "the job failed: " + result.failure->message();
  } else {
    record.outcome =
        cancel_requested ? rounds::RoundOutcome::cancelled : rounds::RoundOutcome::done;
  }
}

}  // namespace nb::service
