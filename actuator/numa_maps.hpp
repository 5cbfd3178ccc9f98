#pragma once
// A process's memory placement, VMA by VMA: /proc/PID/numa_maps (pages per node, page size,
// sharing) joined with /proc/PID/maps (where each VMA ends, which numa_maps does not say).

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "base/units.hpp"

namespace nb::actuator {

struct Vma {
  std::uintptr_t start = 0;
  std::uintptr_t end = 0;      // 0 until joined with maps
  Bytes page_size = 4 * kKiB;  // kernelpagesize_kB: 4 KiB for THP-backed anon, 2 MiB for hugetlb
  std::map<NodeId, std::int64_t> pages_on_node;  // in units of page_size
  std::int64_t anon_pages = 0;
  std::int64_t max_mappers = 1;  // mapmax: above 1, some pages are shared with other processes
  bool hugetlb = false;          // the "huge" keyword
  std::string file;              // file=..., empty for anonymous memory
  std::string kind;              // heap, stack, or empty

  std::int64_t pages_on(NodeId node) const {
    auto it = pages_on_node.find(node);
    return it == pages_on_node.end() ? 0 : it->second;
  }
  Bytes bytes_on(NodeId node) const { return pages_on(node) * page_size; }
  std::int64_t resident_pages() const;
};

// `context` names the document in errors ("/proc/42/numa_maps line 3: ...").
Result<std::vector<Vma>> parse_numa_maps(std::string_view text, std::string_view context);

struct AddressRange {
  std::uintptr_t start = 0;
  std::uintptr_t end = 0;
};
Result<std::vector<AddressRange>> parse_maps(std::string_view text, std::string_view context);

// Both files of one process, joined. A VMA that appeared between the two reads is dropped;
// ENOENT/ESRCH mean the process is gone.
Result<std::vector<Vma>> read_process_vmas(const std::filesystem::path& proc_root, int pid);

Bytes bytes_on_node(const std::vector<Vma>& vmas, NodeId node);

}  // namespace nb::actuator
