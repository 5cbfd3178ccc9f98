#include "daemon/service/running_job.hpp"

#include "base/time.hpp"
#include "daemon/service/manual_migration.hpp"

namespace nb::service {

namespace {

constexpr auto kProgressEvery = std::chrono::milliseconds(100);

}  // namespace

std::unique_ptr<RunningJob> new_job(std::string kind, std::uint64_t round_number,
                                    NodeId source_node, std::vector<NodeId> dest_nodes,
                                    Bytes budget) {
  auto job = std::make_unique<RunningJob>();
  job->kind = std::move(kind);
  job->round_number = round_number;
  job->source_node = source_node;
  job->dest_nodes = std::move(dest_nodes);
  job->budget = budget;
  return job;
}

std::shared_ptr<JobResult> run_job_work(
    const JobWork& work, const std::atomic<bool>& cancel,
    const std::function<void(const actuator::JobProgress&)>& progress) {
  auto result = std::make_shared<JobResult>();
  try {
    for (const auto& request : work.evictions) {
      result->evictions.emplace_back(request, work.evict(work.eviction_config, request));
    }
    if (!work.targets.empty() && !cancel.load()) {
      auto last_post = std::chrono::steady_clock::time_point{};
      result->report = work.migrate(work.targets, work.options, cancel,
                                    [&](const actuator::JobProgress& now_at) {
                                      auto now = std::chrono::steady_clock::now();
                                      if (now - last_post < kProgressEvery) {
                                        return;
                                      }
                                      last_post = now;
                                      progress(now_at);
                                    });
    }
  } catch (const std::exception& e) {
    result->failure = make_error(0, e.what());
  }
  return result;
}

actuator::JobOptions daemon_job_options(const config::Config& config) {
  auto options = job_options_from(config.actuator);
  options.threshold = config.policy.migrate_threshold;
  return options;
}

}  // namespace nb::service
