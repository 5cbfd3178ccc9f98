#pragma once
// What a manual `migrate` may touch without root: what the operator configured. A cgroup is in
// scope when a `[[pool]]` glob matches it or one of its ancestors; a bare process when its memory
// cgroup is. Anything else beneath the memory controller's root is for uid 0 alone, so a member
// of the admin group cannot move pid 1 or a system service's memory.

#include <filesystem>
#include <vector>

#include "base/result.hpp"
#include "daemon/config/config.hpp"
#include "daemon/host/cgroup_confine.hpp"
#include "daemon/service/manual_migration.hpp"

namespace nb::service {

// `relative` is beneath the memory cgroup root ("" is the root, which no pool holds).
bool in_pools(const std::filesystem::path& relative, const std::vector<config::PoolConfig>& pools);

// The process's cgroup in the memory controller's hierarchy, relative to its root, from
// <proc_root>/<pid>/cgroup: the v1 line that lists "memory", else the v2 "0::" line.
Result<std::filesystem::path> memory_cgroup_of(int pid, const std::filesystem::path& proc_root);

// Refused with `outside_pools`, the detail naming the rule, unless the caller is root.
Result<Ok, ManualMigrationError> check_cgroup_scope(const std::filesystem::path& relative,
                                                    const std::vector<config::PoolConfig>& pools,
                                                    bool caller_is_root);
Result<Ok, ManualMigrationError> check_process_scope(int pid,
                                                     const std::vector<config::PoolConfig>& pools,
                                                     const std::filesystem::path& proc_root,
                                                     bool caller_is_root);

// A cgroup request's directory: confined beneath `memory_root` (host::confine_cgroup, refused as
// `cgroup_refused`), then in scope for the caller.
Result<host::ConfinedCgroup, ManualMigrationError> resolve_cgroup_in_scope(
    const std::filesystem::path& memory_root, const std::string& text,
    const std::vector<config::PoolConfig>& pools, bool caller_is_root);

}  // namespace nb::service
