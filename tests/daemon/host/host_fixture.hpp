#pragma once
// Fake hosts for the host readers, built in code under a TempTree: a 4-node sysfs with a gap in
// the node ids and a memory-only node, and cgroup v2, hybrid and v1 mount tables and trees.

#include <map>
#include <string>
#include <string_view>

#include "base/units.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::testing {

// Nodes 0, 1, 2 and 4 are online (3 is not); node 4 has memory but no CPUs (CXL-like).
// CPUs: node 0 has 0-3, node 1 has 4-7, node 2 has 8-11.
inline constexpr std::string_view kFourNodeDistances[] = {
    "10 21 31 17\n",  // node 0
    "21 10 21 28\n",  // node 1
    "31 21 10 28\n",  // node 2
    "17 28 28 10\n",  // node 4
};

inline void make_four_node_sysfs(const TempTree& tree) {
  const char* dir = "sys/devices/system/node";
  tree.make_file(std::string(dir) + "/online", "0-2,4\n");
  tree.make_file(std::string(dir) + "/possible", "0-7\n");
  const int ids[] = {0, 1, 2, 4};
  const char* cpulists[] = {"0-3\n", "4-7\n", "8-11\n", "\n"};
  for (int i = 0; i < 4; ++i) {
    const std::string node = std::string(dir) + "/node" + std::to_string(ids[i]);
    tree.make_file(node + "/distance", kFourNodeDistances[i]);
    tree.make_file(node + "/cpulist", cpulists[i]);
    const std::string prefix = "Node " + std::to_string(ids[i]) + " ";
    // MemTotal (i+1) GiB, MemFree (i+1) * 256 MiB, as the kernel prints them in kB.
    tree.make_file(node + "/meminfo",
                   prefix + "MemTotal:       " + std::to_string((i + 1) * 1048576) + " kB\n" +
                       prefix + "MemFree:        " + std::to_string((i + 1) * 262144) + " kB\n" +
                       prefix + "MemUsed:        1024 kB\n" + prefix + "Active:         0 kB\n");
  }
}

inline constexpr std::string_view kCommonMounts =
    "sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
    "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n";

inline constexpr std::string_view kV2Mounts =
    "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate 0 0\n";

inline constexpr std::string_view kV1Mounts =
    "tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0\n"
    "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,relatime,cpu,cpuacct 0 0\n"
    "cgroup /sys/fs/cgroup/cpuset cgroup rw,relatime,cpuset 0 0\n"
    "cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0\n"
    "cgroup /sys/fs/cgroup/systemd cgroup rw,relatime,name=systemd 0 0\n";

inline constexpr std::string_view kUnifiedMount =
    "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0\n";

inline void make_v2_host(const TempTree& tree) {
  tree.make_file("proc/self/mounts", std::string(kCommonMounts) + std::string(kV2Mounts));
  tree.make_file("sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
  tree.make_file("sys/fs/cgroup/cpuset.cpus.effective", "0-11\n");
}

inline void make_hybrid_host(const TempTree& tree) {
  tree.make_file("proc/self/mounts",
                 std::string(kCommonMounts) + std::string(kV1Mounts) + std::string(kUnifiedMount));
  tree.make_file("sys/fs/cgroup/unified/cgroup.controllers", "");
  tree.make_file("sys/fs/cgroup/cpuset/cpuset.effective_cpus", "0-11\n");
  tree.make_dir("sys/fs/cgroup/memory");
}

inline void make_v1_host(const TempTree& tree) {
  tree.make_file("proc/self/mounts", std::string(kCommonMounts) + std::string(kV1Mounts));
  tree.make_file("sys/fs/cgroup/cpuset/cpuset.effective_cpus", "0-11\n");
  tree.make_dir("sys/fs/cgroup/memory");
}

// A v2 cgroup whose numa_stat holds `anon` bytes per node.
inline void make_v2_cgroup(const TempTree& tree, std::string_view id,
                           const std::map<NodeId, Bytes>& anon) {
  std::string line = "anon";
  std::string file_line = "file";
  for (const auto& [node, bytes] : anon) {
    line += " N" + std::to_string(node) + "=" + std::to_string(bytes);
    file_line += " N" + std::to_string(node) + "=4096";
  }
  tree.make_file("sys/fs/cgroup/" + std::string(id) + "/memory.numa_stat",
                 line + "\n" + file_line + "\nanon_thp N0=0\n");
}

// A v1 memory cgroup: `own` pages on the anon line, `hierarchical` pages on the
// hierarchical_anon line.
inline void make_v1_cgroup(const TempTree& tree, std::string_view id,
                           const std::map<NodeId, long>& own,
                           const std::map<NodeId, long>& hierarchical) {
  auto line = [](std::string_view key, const std::map<NodeId, long>& pages) {
    long total = 0;
    std::string nodes;
    for (const auto& [node, count] : pages) {
      total += count;
      nodes += " N" + std::to_string(node) + "=" + std::to_string(count);
    }
    return std::string(key) + "=" + std::to_string(total) + nodes + "\n";
  };
  tree.make_file("sys/fs/cgroup/memory/" + std::string(id) + "/memory.numa_stat",
                 line("total", hierarchical) + line("file", {{0, 1}}) + line("anon", own) +
                     line("unevictable", {{0, 0}}) + line("hierarchical_total", hierarchical) +
                     line("hierarchical_anon", hierarchical));
}

}  // namespace nb::testing
