#include "daemon/service/manual_migration.hpp"

#include <algorithm>

#include "base/parse_units.hpp"

namespace nb::service {

Result<Bytes, ManualMigrationError> parse_budget(std::string_view text) {
  auto size = parse_size(text);
  if (!size) {
    return ManualMigrationError{MigrationProblem::budget_unreadable, size.error().message()};
  }
  if (*size <= 0) {
    return ManualMigrationError{MigrationProblem::budget_not_positive, ""};
  }
  return *size;
}

Result<Ok, ManualMigrationError> check_rate(double mib_per_s) {
  if (!rate_limit_in_range(mib_per_s)) {
    return ManualMigrationError{MigrationProblem::rate_out_of_range, ""};
  }
  return Ok{};
}

Result<Ok, ManualMigrationError> check_source_and_destinations(NodeId from,
                                                               const std::vector<NodeId>& to) {
  if (std::find(to.begin(), to.end(), from) != to.end()) {
    return ManualMigrationError{
        MigrationProblem::source_is_destination,
        "the source node " + std::to_string(from) + " is also a destination"};
  }
  return Ok{};
}

Result<Ok, ManualMigrationError> check_process(int pid, const std::filesystem::path& proc_root) {
  if (pid <= 0 || pid > kMaxPid) {
    return ManualMigrationError{MigrationProblem::pid_out_of_range, ""};
  }
  std::error_code error;
  if (!std::filesystem::exists(proc_root / std::to_string(pid), error)) {
    return ManualMigrationError{MigrationProblem::no_such_process, ""};
  }
  return Ok{};
}

actuator::JobOptions job_options_from(const config::ActuatorConfig& config) {
  actuator::JobOptions options;
  options.rate_limit_mib_per_s = config.rate_limit_mib_per_s;
  options.call_target = config.call_target;
  options.deadline = config.job_deadline;
  options.move_shared = config.move_shared;
  options.min_free_bytes = config.min_free_bytes;
  return options;
}

actuator::JobOptions job_options_for(const ManualMigration& request, actuator::JobOptions base) {
  base.source_node = request.from;
  if (request.max_bytes) {
    base.budget = *request.max_bytes;
  }
  if (request.rate_mib_per_s) {
    base.rate_limit_mib_per_s = *request.rate_mib_per_s;
  }
  base.dry_run = request.dry_run;
  return base;
}

actuator::MigrationTarget target_of(const ManualMigration& request,
                                    const std::filesystem::path& cgroup_dir) {
  actuator::MigrationTarget target;
  target.dest_nodes = request.to;
  if (request.pid) {
    target.pid = request.pid;
    target.container_id = "pid " + std::to_string(*request.pid);
  } else {
    target.container_id = request.cgroup.value_or("");
    target.cgroup_dir = cgroup_dir;
  }
  return target;
}

}  // namespace nb::service
