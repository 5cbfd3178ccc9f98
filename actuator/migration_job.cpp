#include "actuator/migration_job.hpp"

#include <algorithm>

#include "actuator/destination_picker.hpp"
#include "actuator/job_hotness.hpp"
#include "actuator/job_ledger.hpp"
#include "actuator/job_pacer.hpp"
#include "actuator/job_plan.hpp"
#include "actuator/page_mover.hpp"
#include "actuator/page_walk.hpp"
#include "actuator/process_move.hpp"
#include "actuator/walk_order.hpp"

namespace nb::actuator {
namespace {

// The job: its plan, its page order, then each target's processes in turn, each offered to the
// fast path and otherwise walked span by span with the mover draining what the walk finds.
class Job {
 public:
  Job(const std::vector<MigrationTarget>& targets, const JobOptions& options,
      MemorySyscalls& syscalls, DamonSysfs* damon, const std::filesystem::path& proc_root,
      const std::atomic<bool>& cancel, const std::function<void(const JobProgress&)>& on_progress)
      : targets_(targets),
        options_(options),
        syscalls_(syscalls),
        damon_(damon),
        proc_root_(proc_root),
        cancel_(cancel),
        on_progress_(on_progress),
        start_(syscalls.now()),
        ledger_(options.budget),
        pacer_(options, syscalls, cancel, ledger_, start_),
        picker_(all_destinations(targets), options.min_free_bytes),
        mover_(options, syscalls, proc_root, picker_, pacer_, ledger_,
               [this] { report_progress(); }),
        walk_(syscalls, proc_root, ledger_, options.source_node) {}

  MigrationReport run();

 private:
  void migrate_target(TargetPlan& plan, ContainerReport& container);
  void migrate_process(const TargetPlan& plan, ProcessPlan& process, ProcessReport& report);
  void report_progress();

  const std::vector<MigrationTarget>& targets_;
  const JobOptions& options_;
  MemorySyscalls& syscalls_;
  DamonSysfs* damon_;
  const std::filesystem::path& proc_root_;
  const std::atomic<bool>& cancel_;
  const std::function<void(const JobProgress&)>& on_progress_;
  Clock::time_point start_;
  JobLedger ledger_;
  JobPacer pacer_;
  DestinationPicker picker_;
  PageMover mover_;
  PageWalk walk_;
  ProcessMove process_;
  JobHotness hotness_;
};

MigrationReport Job::run() {
  MigrationReport& report = ledger_.report();
  report.source_node = options_.source_node;
  report.dest_nodes = all_destinations(targets_);
  report.dry_run = options_.dry_run;
  report.move_shared = options_.move_shared;
  report.budget = options_.budget;
  report.threshold = options_.threshold;

  JobPlan plan = plan_job(targets_, options_.source_node, syscalls_, proc_root_, &cancel_);
  report.errors = std::move(plan.errors);
  report.vanished_pids = std::move(plan.vanished_pids);
  report.goal = std::min(options_.budget, plan.on_source());

  mover_.refresh_destinations(true);
  if (cancel_.load()) {
    pacer_.stop(StopReason::cancelled);
  } else if (report.goal <= 0) {
    pacer_.stop(StopReason::nothing_to_move);
  } else {
    hotness_ =
        survey_hotness(plan, options_, damon_, syscalls_, proc_root_, cancel_, ledger_.report());
  }
  for (auto& target_plan : plan.targets) {
    ContainerReport container;
    container.id = target_plan.target->container_id;
    container.cgroup_dir = target_plan.target->cgroup_dir;
    container.budget = target_plan.target->max_bytes;
    if (!pacer_.stop_reason()) {
      migrate_target(target_plan, container);
    }
    report.containers.push_back(std::move(container));
  }

  for (const auto& destination : picker_.destinations()) {
    if (destination.dropped) {
      report.dropped_destinations.push_back({destination.node, destination.drop_reason});
    }
  }
  report.elapsed = syscalls_.now() - start_;
  if (!pacer_.stop_reason()) {
    pacer_.stop(ledger_.budget_met() ? StopReason::budget_met : StopReason::completed);
  }
  report.stop_reason = *pacer_.stop_reason();
  Bytes achieved =
      options_.dry_run ? std::min(report.bytes_on_source(), report.goal) : ledger_.placed();
  report.threshold_met =
      report.goal > 0 &&
      static_cast<double>(achieved) >= options_.threshold * static_cast<double>(report.goal);
  return std::move(report);
}

void Job::migrate_target(TargetPlan& plan, ContainerReport& container) {
  auto started = syscalls_.now();
  ledger_.start_target(plan.target->container_id);
  for (auto& process : plan.processes) {
    if (pacer_.should_stop() || ledger_.remaining(plan.cap) <= 0) {
      break;
    }
    ProcessReport process_report;
    process_report.pid = process.pid;
    migrate_process(plan, process, process_report);
    container.processes.push_back(std::move(process_report));
  }
  container.elapsed = syscalls_.now() - started;
}

void Job::migrate_process(const TargetPlan& plan, ProcessPlan& process, ProcessReport& report) {
  auto started = syscalls_.now();
  process_.start(process.pinned);
  ledger_.start_process(process.pid);
  std::vector<Vma> vmas = process.vmas;
  auto drain = [&] { return mover_.move_pending(plan, process_, report, false); };

  // The pid may name another process, or the process another cgroup, since the plan read it.
  if (process_.confirm(report) && !mover_.move_whole_process(plan, process_, vmas, report) &&
      !process_.done) {
    const auto* regions = hotness_.regions_of(process.pid);
    report.hot_first = regions != nullptr;
    // Each VMA's pages found so far, over its spans: numa_maps' count ends its walk.
    std::vector<std::int64_t> found(vmas.size(), 0);
    for (const auto& span : walk_order(vmas, options_.source_node, regions)) {
      if (!walk_.walk(vmas[span.vma], span, found[span.vma], process_, report, drain)) {
        break;
      }
    }
    if (!process_.done && !pacer_.should_stop()) {
      mover_.move_pending(plan, process_, report, true);
    }
  }
  process.pinned.release();
  if (report.vanished) {
    ledger_.report().vanished_pids.push_back(process.pid);
  }
  report.elapsed = syscalls_.now() - started;
}

void Job::report_progress() {
  if (on_progress_) {
    on_progress_(ledger_.progress(syscalls_.now() - start_));
  }
}

}  // namespace

MigrationReport run_migration(const std::vector<MigrationTarget>& targets,
                              const JobOptions& options, MemorySyscalls& syscalls,
                              DamonSysfs* damon, const std::filesystem::path& proc_root,
                              const std::atomic<bool>& cancel,
                              const std::function<void(const JobProgress&)>& on_progress) {
  Job job(targets, options, syscalls, damon, proc_root, cancel, on_progress);
  return job.run();
}

MigrationReport run_migration(const std::vector<MigrationTarget>& targets,
                              const JobOptions& options, MemorySyscalls& syscalls,
                              const std::filesystem::path& proc_root,
                              const std::atomic<bool>& cancel,
                              const std::function<void(const JobProgress&)>& on_progress) {
  return run_migration(targets, options, syscalls, nullptr, proc_root, cancel, on_progress);
}

}  // namespace nb::actuator
