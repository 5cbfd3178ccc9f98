#include "actuator/job_hotness.hpp"

#include <unistd.h>

#include <string>

#include "base/parse_units.hpp"

namespace nb::actuator {
namespace {

std::string describe(const Error& error) {
  std::string text = error.message();
  if (error.code != 0) {
    text += " (errno " + std::to_string(error.code) + ")";
  }
  return text;
}

// The processes the walk will take, in its order: those with pages on the source that the fast
// path will not move whole.
std::vector<int> walked_pids(const JobPlan& plan, const JobOptions& options) {
  std::vector<int> pids;
  for (const auto& target : plan.targets) {
    for (const auto& process : target.processes) {
      Bytes footprint = bytes_on_node(process.vmas, options.source_node);
      if (footprint > 0 && footprint > options.fast_path_max_bytes) {
        pids.push_back(process.pid);
      }
    }
  }
  return pids;
}

// Some processes went hot first; the others did not, for these reasons.
std::string partial_fallback(std::size_t asked, std::size_t watched,
                             const std::optional<Error>& failure) {
  std::size_t beyond =
      asked > DamonMonitor::kMaxProcesses ? asked - DamonMonitor::kMaxProcesses : 0;
  std::string text;
  if (beyond > 0) {
    text = std::to_string(beyond) + " processes beyond the " +
           std::to_string(DamonMonitor::kMaxProcesses) +
           " DAMON watches at once went in address order";
  }
  if (watched + beyond < asked && failure) {
    text += (text.empty() ? "" : "; ") + describe(*failure);
  }
  return text;
}

}  // namespace

const std::vector<DamonRegion>* JobHotness::regions_of(int pid) const {
  auto found = regions.find(pid);
  return found == regions.end() ? nullptr : &found->second;
}

JobHotness survey_hotness(const JobPlan& plan, const JobOptions& options, DamonSysfs* damon,
                          MemorySyscalls& syscalls, const std::filesystem::path& proc_root,
                          const std::atomic<bool>& cancel, MigrationReport& report) {
  report.page_order = PageOrder::address;
  if (options.page_order == PageOrder::address) {
    return {};
  }
  if (damon == nullptr) {
    report.page_order_fallback = "DAMON is not available to this job";
    return {};
  }
  if (options.dry_run) {
    report.page_order_fallback = "a dry run moves nothing, so DAMON did not watch it";
    return {};
  }
  // The window counts against the deadline: a job that spent most of it watching would move
  // little in the rest.
  if (options.hotness_window * 2 > options.deadline) {
    report.page_order_fallback = "the hotness window (" +
                                 exact_duration_text(options.hotness_window) +
                                 ") would take more than half of the job's deadline (" +
                                 exact_duration_text(options.deadline) + ")";
    return {};
  }
  auto pids = walked_pids(plan, options);
  if (pids.empty()) {
    report.page_order_fallback =
        "every process is small enough for the fast path, which moves it whole";
    return {};
  }
  DamonMonitor monitor(*damon, syscalls, proc_root, ::getpid());
  DamonWatch watch = monitor.watch(pids, options.hotness_window, cancel);
  report.hotness_cost = watch.cost;
  if (watch.cleanup_failure) {
    ReportError error;
    error.code = watch.cleanup_failure->code;
    error.message = "DAMON: " + watch.cleanup_failure->message();
    error.hint = "numabalancerd removes the kdamonds it left behind when it next starts";
    report.errors.push_back(std::move(error));
  }
  if (watch.regions.empty()) {
    report.page_order_fallback =
        watch.failure ? describe(*watch.failure) : "DAMON watched no process to the end";
    return {};
  }
  report.page_order = PageOrder::hot_first;
  report.page_order_fallback = partial_fallback(pids.size(), watch.regions.size(), watch.failure);
  return JobHotness{std::move(watch.regions)};
}

}  // namespace nb::actuator
