#pragma once
// A migration someone asked for by hand, outside the rounds: the admin `migrate` command and
// `numabalancerd migrate` both read their input into this one request, check it with the same
// rules and build the job from [actuator] the same way. Each front end words a problem in its
// own terms (a JSON field or a command-line flag).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "actuator/migration_job.hpp"
#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/config/config.hpp"

namespace nb::service {

struct ManualMigration {
  // Exactly one of the two: a cgroup (its memory and its descendants') or a single process.
  std::optional<std::string> cgroup;
  std::optional<int> pid;
  NodeId from = 0;
  std::vector<NodeId> to;                // in order of preference
  std::optional<Bytes> max_bytes;        // unset: everything on the source
  std::optional<double> rate_mib_per_s;  // unset: [actuator] rate_limit; 0 = unlimited
  bool dry_run = false;
};

enum class MigrationProblem {
  budget_unreadable,    // the size did not parse; the detail says why
  budget_not_positive,  // a budget of zero or less would move nothing
  rate_out_of_range,    // not 0 (unlimited) nor within [kMinRateMiBPerS, kMaxRateMiBPerS]
  pid_out_of_range,     // not within [1, kMaxPid]
  no_such_process,
  cgroup_refused,  // not beneath the memory cgroup root, or no such cgroup; the detail says which
  outside_pools,   // in no configured pool, and the caller is not root; the detail names the rule
  source_is_destination,  // the detail is the message both front ends show
};

struct ManualMigrationError {
  MigrationProblem problem;
  std::string detail;
};

// A budget written as a size ("512MiB"); it must be positive.
Result<Bytes, ManualMigrationError> parse_budget(std::string_view text);
Result<Ok, ManualMigrationError> check_rate(double mib_per_s);
// The source must not be one of the destinations: pages already on it would count as placed and
// the job would report success having moved nothing.
Result<Ok, ManualMigrationError> check_source_and_destinations(NodeId from,
                                                               const std::vector<NodeId>& to);
// The process must exist under `proc_root` now; it may still exit before the job reaches it.
Result<Ok, ManualMigrationError> check_process(int pid, const std::filesystem::path& proc_root);

// The job options [actuator] sets; the caller adds the source, the budget and the threshold.
actuator::JobOptions job_options_from(const config::ActuatorConfig& config);
// `base` with the request's source, budget, rate and dry-run.
actuator::JobOptions job_options_for(const ManualMigration& request, actuator::JobOptions base);
// The request's one target; a cgroup request names its directory, already resolved.
actuator::MigrationTarget target_of(const ManualMigration& request,
                                    const std::filesystem::path& cgroup_dir);

}  // namespace nb::service
