#include "daemon/host/container_walk.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <deque>

#include "daemon/host/cgroup_glob.hpp"
#include "daemon/host/small_file.hpp"

namespace nb::host {
namespace {

GlobSet compile(const std::vector<config::PoolConfig>& pools) {
  GlobSet globs;
  for (std::size_t pool = 0; pool < pools.size(); ++pool) {
    for (const std::string& glob : pools[pool].cgroups) {
      globs.add(glob, pool);
    }
  }
  return globs;
}

std::string conflict_message(std::string_view cgroup, const std::vector<std::size_t>& owners,
                             const std::vector<config::PoolConfig>& pools) {
  std::string message = "cgroup " + std::string(cgroup) + " is matched by pools ";
  for (std::size_t i = 0; i < owners.size(); ++i) {
    if (i > 0) {
      message += i + 1 == owners.size() ? " and " : ", ";
    }
    message += pools[owners[i]].name;
  }
  return message;
}

bool is_directory(int parent_fd, const dirent& entry) {
  if (entry.d_type != DT_UNKNOWN) {
    return entry.d_type == DT_DIR;
  }
  struct stat status {};
  return ::fstatat(parent_fd, entry.d_name, &status, AT_SYMLINK_NOFOLLOW) == 0 &&
         S_ISDIR(status.st_mode);
}

class Walker {
 public:
  Walker(const GlobSet& globs, const std::vector<config::PoolConfig>& pools,
         const std::function<void(const FoundContainer&)>& on_container,
         const std::filesystem::path& root)
      : globs_(globs), pools_(pools), on_container_(on_container), root_(root) {}

  // What a walk found under a cgroup.
  enum class Below { nothing, matched, vanished };

  // Takes ownership of `directory_fd`. The value is whether anything below matched.
  Result<bool> walk(int directory_fd, std::size_t depth, const GlobSet::States& states) {
    DIR* directory = ::fdopendir(directory_fd);
    if (directory == nullptr) {
      const int code = errno;
      ::close(directory_fd);
      return make_error(code, "list " + (root_ / path_).string());
    }
    // Per-depth buffers, reused across siblings; a deque keeps references stable as it grows.
    if (child_states_.size() <= depth) {
      child_states_.emplace_back();
      owners_.emplace_back();
    }
    GlobSet::States& child_states = child_states_[depth];
    std::vector<std::size_t>& owners = owners_[depth];
    const int fd = ::dirfd(directory);
    bool matched_below = false;

    errno = 0;
    while (const dirent* entry = ::readdir(directory)) {
      const std::string_view name = entry->d_name;
      if (name == "." || name == ".." || !is_directory(fd, *entry)) {
        continue;
      }
      ++counts_.cgroups_seen;
      globs_.step(states, name, child_states, owners);
      const bool descend = globs_.can_descend(child_states);
      if (owners.empty() && !descend) {
        continue;
      }
      const std::size_t parent_length = path_.size();
      if (!path_.empty()) {
        path_ += '/';
      }
      path_ += name;

      auto below = descend ? open_and_walk(fd, entry->d_name, depth, child_states) : Below::nothing;
      if (!below) {
        ::closedir(directory);
        return below.error();
      }
      if (*below == Below::vanished) {
        path_.resize(parent_length);
        errno = 0;
        continue;
      }
      if (owners.size() > 1) {
        counts_.conflicts.push_back(conflict_message(path_, owners, pools_));
      } else if (!owners.empty() && *below == Below::nothing) {
        on_container_(
            FoundContainer{.parent_fd = fd, .name = name, .id = path_, .pool = owners.front()});
      }
      matched_below = matched_below || !owners.empty() || *below == Below::matched;
      path_.resize(parent_length);
      errno = 0;
    }
    const int code = errno;
    ::closedir(directory);
    if (code != 0) {
      return make_error(code, "list " + (root_ / path_).string());
    }
    return matched_below;
  }

  WalkCounts take_counts() { return std::move(counts_); }

 private:
  // A cgroup removed under us is counted, and the walk carries on with its siblings.
  Result<Below> open_and_walk(int parent_fd, const char* name, std::size_t depth,
                              const GlobSet::States& states) {
    const int child_fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (child_fd < 0) {
      Error error = make_error(errno, "open " + (root_ / path_).string());
      if (vanished(error)) {
        ++counts_.vanished;
        return Below::vanished;
      }
      return error;
    }
    auto below = walk(child_fd, depth + 1, states);
    if (!below) {
      if (vanished(below.error())) {
        ++counts_.vanished;
        return Below::vanished;
      }
      return below.error();
    }
    return *below ? Below::matched : Below::nothing;
  }

  const GlobSet& globs_;
  const std::vector<config::PoolConfig>& pools_;
  const std::function<void(const FoundContainer&)>& on_container_;
  const std::filesystem::path& root_;
  std::string path_;
  std::deque<GlobSet::States> child_states_;
  std::deque<std::vector<std::size_t>> owners_;
  WalkCounts counts_;
};

}  // namespace

Result<WalkCounts> walk_containers(const std::filesystem::path& cgroup_root,
                                   const std::vector<config::PoolConfig>& pools,
                                   const std::function<void(const FoundContainer&)>& on_container) {
  const GlobSet globs = compile(pools);
  const int root_fd = ::open(cgroup_root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) {
    return make_error(errno, "open " + cgroup_root.string());
  }
  Walker walker(globs, pools, on_container, cgroup_root);
  auto walked = walker.walk(root_fd, 0, globs.start());
  if (!walked) {
    return walked.error();
  }
  return walker.take_counts();
}

std::vector<std::string> find_pool_conflicts(const std::vector<config::PoolConfig>& pools,
                                             const std::vector<std::string>& cgroup_paths) {
  const GlobSet globs = compile(pools);
  std::vector<std::string> conflicts;
  for (const std::string& cgroup : cgroup_paths) {
    const auto owners = globs.owners_matching(cgroup);
    if (owners.size() > 1) {
      conflicts.push_back(conflict_message(cgroup, owners, pools));
    }
  }
  return conflicts;
}

Result<std::vector<std::string>> find_pool_conflicts(const std::filesystem::path& cgroup_root,
                                                     const std::vector<config::PoolConfig>& pools) {
  auto counts = walk_containers(cgroup_root, pools, [](const FoundContainer&) {});
  if (!counts) {
    return counts.error();
  }
  return std::move(counts->conflicts);
}

}  // namespace nb::host
