#pragma once
// Finds the containers: the cgroups under a hierarchy's root that the pools' globs match.
//
// The deepest match is the container. A matched cgroup with a matched descendant (by any pool)
// is not a container itself: its numa_stat already includes every descendant, so counting it
// too would count their memory twice. Its own memory outside the matched descendants is then not
// balanced unless a glob names it. A cgroup matched by two pools belongs to neither: it is a
// configuration error, reported by find_pool_conflicts and skipped by the walk.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "daemon/config/config.hpp"

namespace nb::host {

struct FoundContainer {
  int parent_fd;          // the open parent directory, for openat without path resolution
  std::string_view name;  // the cgroup's directory name in the parent
  std::string_view id;    // its path relative to the root, e.g. "system.slice/a.service"
  std::size_t pool;       // index into the pools given to the walk
};

struct WalkCounts {
  std::size_t cgroups_seen = 0;  // directories whose name was matched against the globs
  std::size_t vanished = 0;      // removed between listing and opening
  std::vector<std::string> conflicts;
};

// Calls `on_container` for each container, in the walk's order. Only the root failing to open or
// list is an error; cgroups that vanish during the walk are counted.
Result<WalkCounts> walk_containers(const std::filesystem::path& cgroup_root,
                                   const std::vector<config::PoolConfig>& pools,
                                   const std::function<void(const FoundContainer&)>& on_container);

// "cgroup X is matched by pools A and B", one line per such cgroup, for `--check-config`.
std::vector<std::string> find_pool_conflicts(const std::vector<config::PoolConfig>& pools,
                                             const std::vector<std::string>& cgroup_paths);
Result<std::vector<std::string>> find_pool_conflicts(const std::filesystem::path& cgroup_root,
                                                     const std::vector<config::PoolConfig>& pools);

}  // namespace nb::host
