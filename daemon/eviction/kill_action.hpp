#pragma once
// `kill`: writes cgroup.kill on v2; on v1, which has no such file, SIGKILLs each process of the
// cgroup tree through a pidfd, once /proc/PID/cgroup confirms the process is still in the tree:
// a pid read from cgroup.procs may name another process by the time it is signalled.

#include <filesystem>

#include "daemon/eviction/eviction_action.hpp"

namespace nb::eviction {

std::unique_ptr<EvictionAction> make_kill_action(const config::EvictionConfig& config);

// The same, reading /proc/PID/cgroup under `proc_root` (a test's fake tree) instead of /proc.
std::unique_ptr<EvictionAction> make_kill_action_at(std::filesystem::path proc_root);

}  // namespace nb::eviction
