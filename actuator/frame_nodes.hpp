#pragma once
// Which NUMA node holds a physical page frame. Memory is onlined in blocks of block_size_bytes and
// sysfs lists each node's blocks (/sys/devices/system/node/nodeN/memoryM); a privileged reader
// of /proc/PID/pagemap sees frame numbers, so a page's node is known without asking move_pages
// about every page, which costs the kernel a page-table walk each.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "core/result.hpp"
#include "core/units.hpp"

namespace nb::actuator {

class FrameNodes {
 public:
  // sys_root is the sysfs mount ("/sys"). An error when the kernel has no memory block
  // directories (built without memory hotplug) or lists none: callers then ask move_pages.
  static Result<FrameNodes> read(const std::filesystem::path& sys_root);

  // Empty for a frame in no listed block or in a block that sysfs places on two nodes.
  std::optional<NodeId> node_of(std::uint64_t frame) const;

  std::size_t block_count() const { return blocks_; }

 private:
  // Consecutive blocks on one node, by block number.
  struct Run {
    std::uint64_t first_block = 0;
    std::uint64_t last_block = 0;
    NodeId node = 0;
  };

  std::uint64_t frames_per_block_ = 1;
  std::vector<Run> runs_;  // sorted, disjoint
  std::size_t blocks_ = 0;
  mutable std::size_t last_run_ = 0;  // page-map reads look frames up mostly in order
};

}  // namespace nb::actuator
