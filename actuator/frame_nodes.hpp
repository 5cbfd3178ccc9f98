#pragma once
// Which NUMA node holds a physical page frame. Memory is onlined in blocks of block_size_bytes and
// sysfs lists each node's blocks (/sys/devices/system/node/nodeN/memoryM); a privileged reader
// of /proc/PID/pagemap sees frame numbers, so a page's node is known without asking move_pages
// about every page, which costs the kernel a page-table walk each.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "base/result.hpp"
#include "base/units.hpp"

namespace nb::actuator {

class FrameNodes {
 public:
  // sys_root is the sysfs mount ("/sys"). An error when the kernel has no memory block
  // directories (built without memory hotplug) or lists none: callers then ask move_pages.
  static Result<FrameNodes> read(const std::filesystem::path& sys_root);

  // Frames [first, end) that share one answer: a run of blocks on one node, or a stretch that
  // no listed block (or only blocks placed on two nodes) covers, whose node is empty. A page-map
  // reader keeps the span of the last frame and looks again only for a frame outside it.
  struct Span {
    std::uint64_t first = 0;
    std::uint64_t end = 0;
    std::optional<NodeId> node;

    bool contains(std::uint64_t frame) const { return frame - first < end - first; }
  };
  Span span_of(std::uint64_t frame) const;

  // Empty for a frame in no listed block or in a block that sysfs places on two nodes.
  std::optional<NodeId> node_of(std::uint64_t frame) const { return span_of(frame).node; }

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
};

}  // namespace nb::actuator
