#include "daemon/service/manual_migration_scope.hpp"

#include <cerrno>
#include <string>

#include "actuator/process_identity.hpp"
#include "daemon/host/cgroup_glob.hpp"

namespace nb::service {
namespace {

constexpr const char* kRootOnly = " is outside the configured pools; only root may move it";

}  // namespace

bool in_pools(const std::filesystem::path& relative, const std::vector<config::PoolConfig>& pools) {
  host::GlobSet globs;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    for (const auto& glob : pools[i].cgroups) {
      globs.add(glob, i);
    }
  }
  std::filesystem::path prefix;
  for (const auto& part : relative) {
    prefix /= part;
    if (!globs.owners_matching(prefix.string()).empty()) {
      return true;
    }
  }
  return false;
}

Result<std::filesystem::path> memory_cgroup_of(int pid, const std::filesystem::path& proc_root) {
  // The v1 memory hierarchy's line where there is one (hybrid hosts), else the v2 line.
  auto cgroup = actuator::process_cgroup(proc_root, pid, false);
  if (!cgroup && cgroup.error().code == ENODATA) {
    cgroup = actuator::process_cgroup(proc_root, pid, true);
  }
  if (!cgroup) {
    return cgroup.error();
  }
  return std::filesystem::path(*cgroup).relative_path();
}

Result<Ok, ManualMigrationError> check_cgroup_scope(const std::filesystem::path& relative,
                                                    const std::vector<config::PoolConfig>& pools,
                                                    bool caller_is_root) {
  if (caller_is_root || in_pools(relative, pools)) {
    return Ok{};
  }
  std::string name = relative.empty() ? "the root cgroup" : "cgroup " + relative.string();
  return ManualMigrationError{MigrationProblem::outside_pools, name + kRootOnly};
}

Result<Ok, ManualMigrationError> check_process_scope(int pid,
                                                     const std::vector<config::PoolConfig>& pools,
                                                     const std::filesystem::path& proc_root,
                                                     bool caller_is_root) {
  if (caller_is_root) {
    return Ok{};
  }
  std::string name = "process " + std::to_string(pid);
  auto cgroup = memory_cgroup_of(pid, proc_root);
  if (!cgroup) {
    return ManualMigrationError{
        MigrationProblem::outside_pools,
        name + "'s cgroup is unknown (" + cgroup.error().message() + "), so it" + kRootOnly};
  }
  if (in_pools(*cgroup, pools)) {
    return Ok{};
  }
  return ManualMigrationError{MigrationProblem::outside_pools,
                              name + " (cgroup /" + cgroup->string() + ")" + kRootOnly};
}

Result<host::ConfinedCgroup, ManualMigrationError> resolve_cgroup_in_scope(
    const std::filesystem::path& memory_root, const std::string& text,
    const std::vector<config::PoolConfig>& pools, bool caller_is_root) {
  auto cgroup = host::confine_cgroup(memory_root, text);
  if (!cgroup) {
    return ManualMigrationError{MigrationProblem::cgroup_refused, cgroup.error().message()};
  }
  if (auto scope = check_cgroup_scope(cgroup->relative, pools, caller_is_root); !scope) {
    return scope.error();
  }
  return std::move(cgroup.value());
}

}  // namespace nb::service
