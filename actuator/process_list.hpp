#pragma once
// The processes of a cgroup subtree: cgroup.procs of the cgroup and of every descendant.
// Processes rather than threads, because threads share one mm and moving it once is enough.

#include <filesystem>
#include <vector>

#include "base/result.hpp"

namespace nb::actuator {

// Ascending, without duplicates. A missing cgroup is ENOENT; a descendant that disappears while
// being read is skipped, since the cgroup tree changes under us as containers come and go.
Result<std::vector<int>> cgroup_processes(const std::filesystem::path& cgroup_dir);

}  // namespace nb::actuator
