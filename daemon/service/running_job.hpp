#pragma once
// A migration job as the daemon tracks it while it runs on its own thread, and what the thread
// hands back when it ends. The loop thread owns the job; the thread reads only `cancel`.

#include <atomic>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "actuator/migration_job.hpp"
#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/config/config.hpp"
#include "daemon/service/eviction.hpp"

namespace nb::service {

struct RunningJob {
  std::uint64_t id = 0;
  std::string kind;  // round, manual
  std::uint64_t round_number = 0;
  TimePoint started;
  NodeId source_node = 0;
  std::vector<NodeId> dest_nodes;
  Bytes budget = 0;
  bool dry_run = false;
  actuator::JobProgress progress;
  std::atomic<bool> cancel{false};
  std::thread thread;
};

struct JobResult {
  std::optional<actuator::MigrationReport> report;
  std::vector<std::pair<EvictionRequest, Result<EvictionResult>>> evictions;
  std::string error;  // what the job thread threw, if it did
};

// What every job the daemon starts begins with: [actuator] and the policy's success threshold.
actuator::JobOptions daemon_job_options(const config::Config& config);

// The job as `status` and the job_started / job_progress events show it.
nlohmann::json to_json(const RunningJob& job);

}  // namespace nb::service
