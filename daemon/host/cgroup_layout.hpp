#pragma once
// Where the cgroup hierarchies are: pure v2, hybrid (v1 controllers plus v2 at
// /sys/fs/cgroup/unified) or pure v1. Containers and numa_stat live in the hierarchy that holds
// the memory controller; on v1 that is the memory controller's own mount.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace nb::host {

enum class CgroupMode { v2, hybrid, v1 };
std::string_view to_string(CgroupMode);

struct CgroupLayout {
  CgroupMode mode;
  std::filesystem::path
      memory_root;  // hierarchy holding containers and numa_stat (v2 root or v1 memory)
  std::optional<std::filesystem::path> cpuset_root;   // where cpuset.cpus.effective lives, if any
  std::optional<std::filesystem::path> unified_root;  // the v2 mount, if any (freeze/kill need it)
  std::filesystem::path container_dir(std::string_view container_id) const;  // memory_root / id
};

// Reads <host_root>/proc/self/mounts (or proc/mounts when a captured tree holds only that), mount
// points taken under host_root. When host_root is "/"
// and libcgroup initialises, the memory and cpuset mount points come from libcgroup instead.
nb::Result<CgroupLayout> detect_cgroup_layout(const std::filesystem::path& host_root);

// The pieces detect_cgroup_layout is made of, for tests and for the snapshot's meta.
struct Mount {
  std::string fstype;
  std::filesystem::path mount_point;  // as the kernel prints it, octal escapes decoded
  std::vector<std::string> options;   // v1 cgroup mounts list their controllers here
};
Result<std::vector<Mount>> parse_mounts(std::string_view text, std::string_view context);
Result<CgroupLayout> layout_from_mounts(const std::filesystem::path& host_root,
                                        const std::vector<Mount>& mounts);

// libcgroup's view of the live host ("/" only); nullopt when libcgroup cannot initialise.
struct LibcgroupMounts {
  std::optional<std::filesystem::path> memory;
  std::optional<std::filesystem::path> cpuset;
};
std::optional<LibcgroupMounts> libcgroup_mounts();

// "libcgroup" or "mounts": what detect_cgroup_layout used for this root.
std::string_view cgroup_discovery_source(const std::filesystem::path& host_root);

// The file that holds a cgroup's effective CPUs in this layout's cpuset hierarchy.
std::string_view effective_cpus_file(const CgroupLayout& layout);

}  // namespace nb::host
