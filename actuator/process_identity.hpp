#pragma once
// Who a pid names, as /proc tells it: the process's start time (which a reused pid does not
// share) and its cgroup. Every reader takes the proc root, so tests read a fake tree.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace nb::actuator {

// How /proc/PID/cgroup names a cgroup directory: the line of its hierarchy (v2's "0::" line, or
// on v1 and hybrid hosts the memory controller's, whose hierarchy holds the containers) and the
// path from that hierarchy's root, "/" for the root itself.
struct CgroupName {
  bool v2 = true;
  std::string path;
};

// The hierarchy's root is the topmost directory above `cgroup_dir` that is still a cgroup (holds
// cgroup.procs): the mount point, whose parent is not part of any cgroup file system.
Result<CgroupName> cgroup_name(const std::filesystem::path& cgroup_dir);

// Field 22 of /proc/PID/stat, in clock ticks since boot. ENOENT when the process is gone.
Result<std::uint64_t> process_start_time(const std::filesystem::path& proc_root, int pid);

// The process's cgroup in the hierarchy `v2` selects, as /proc/PID/cgroup lists it. ENOENT when
// the process is gone, ENODATA when that hierarchy has no line.
Result<std::string> process_cgroup(const std::filesystem::path& proc_root, int pid, bool v2);

// Whether cgroup `path` is `ancestor` or one of its descendants.
bool cgroup_within(std::string_view path, std::string_view ancestor);

// Whether the process pid names is in `cgroup` or below it now. A process that is gone, or that
// the hierarchy does not list, is not.
Result<bool> process_in_cgroup(const std::filesystem::path& proc_root, int pid,
                               const CgroupName& cgroup);

}  // namespace nb::actuator
