#pragma once
// A cgroup's anonymous memory per node, from memory.numa_stat.
//   v2: "anon N0=<bytes> N1=<bytes> …" — always the cgroup and all its descendants.
//   v1: "anon=<pages> N0=<pages> …" and "hierarchical_anon=<pages> N0=<pages> …", in pages.
// On v1 the hierarchical line is used whenever the kernel prints it (every kernel since 3.8):
// for a cgroup with children it is the only line that includes them, and for a leaf it equals
// the anon line, so a container is always its whole subtree, as on v2.

#include <filesystem>
#include <map>
#include <string_view>

#include "base/result.hpp"
#include "base/units.hpp"

namespace nb::host {

enum class NumaStatFormat { v2, v1 };

using AnonBytes = std::map<NodeId, Bytes>;

// `page_size` converts v1 pages to bytes; v2 is already in bytes. A text without the anon line,
// or with a malformed one, is an error with code 0 naming `context`.
Result<AnonBytes> parse_numa_stat(std::string_view text, NumaStatFormat format, Bytes page_size,
                                  std::string_view context);

Result<AnonBytes> read_numa_stat(const std::filesystem::path& cgroup_dir, NumaStatFormat format,
                                 Bytes page_size);

}  // namespace nb::host
