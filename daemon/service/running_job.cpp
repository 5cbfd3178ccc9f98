#include "daemon/service/running_job.hpp"

#include "daemon/codec/snapshot_json.hpp"
#include "daemon/service/manual_migration.hpp"
#include "daemon/service/report_summary.hpp"

namespace nb::service {

actuator::JobOptions daemon_job_options(const config::Config& config) {
  auto options = job_options_from(config.actuator);
  options.threshold = config.policy.migrate_threshold;
  return options;
}

nlohmann::json to_json(const RunningJob& job) {
  return {{"id", job.id},
          {"kind", job.kind},
          {"round", job.round_number},
          {"started", codec::format_time(job.started)},
          {"source_node", job.source_node},
          {"dest_nodes", job.dest_nodes},
          {"budget", job.budget},
          {"dry_run", job.dry_run},
          {"cancel_requested", job.cancel.load()},
          {"progress", progress_json(job.progress)}};
}

}  // namespace nb::service
