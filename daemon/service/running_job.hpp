#pragma once
// A migration job as the daemon tracks it while it runs on its own thread, and what the thread
// hands back when it ends. The loop thread owns the job; the thread reads only `cancel`.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "actuator/migration_job.hpp"
#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/config/config.hpp"
#include "daemon/eviction/registry.hpp"
#include "daemon/rounds/round_record.hpp"

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

std::unique_ptr<RunningJob> new_job(std::string kind, std::uint64_t round_number,
                                    NodeId source_node, std::vector<NodeId> dest_nodes,
                                    Bytes budget);

struct JobResult {
  std::optional<actuator::MigrationReport> report;
  std::vector<std::pair<eviction::EvictionRequest, Result<eviction::EvictionResult>>> evictions;
  std::optional<Error> failure;  // what the job thread threw, if it did
};

// The actuator and the eviction as the job thread calls them; seams, so that tests fake them.
using MigrateFunction = std::function<actuator::MigrationReport(
    const std::vector<actuator::MigrationTarget>&, const actuator::JobOptions&,
    const std::atomic<bool>& cancel, const std::function<void(const actuator::JobProgress&)>&)>;
using EvictFunction = std::function<Result<eviction::EvictionResult>(
    const config::EvictionConfig&, const eviction::EvictionRequest&)>;

// What a job thread does: the evictions first, then (unless cancelled by then) the migration.
struct JobWork {
  std::vector<actuator::MigrationTarget> targets;
  actuator::JobOptions options;
  std::vector<eviction::EvictionRequest> evictions;
  config::EvictionConfig eviction_config;
  MigrateFunction migrate;
  EvictFunction evict;
};

// Runs on the job thread. `progress` hears at most every 100 ms; whatever the work throws ends
// up in the result's error.
std::shared_ptr<JobResult> run_job_work(
    const JobWork& work, const std::atomic<bool>& cancel,
    const std::function<void(const actuator::JobProgress&)>& progress);

// What every job the daemon starts begins with: [actuator] and the policy's success threshold.
actuator::JobOptions daemon_job_options(const config::Config& config);

// A job once it has ended, with its round as the job left it: what `status` shows as last_job.
struct FinishedJob {
  std::uint64_t id = 0;
  std::string kind;
  TimePoint started;
  TimePoint finished;
  rounds::RoundRecord round;
};

}  // namespace nb::service
