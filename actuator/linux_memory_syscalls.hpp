#pragma once
// MemorySyscalls on the running kernel: libnuma's move_pages/migrate_pages wrappers, pagemap for
// resident ranges (the PAGEMAP_SCAN ioctl from Linux 6.7, else reading pagemap entries, whose
// frame numbers also say each page's node) and libnuma for node sizes.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "actuator/frame_nodes.hpp"
#include "actuator/memory_syscalls.hpp"

namespace nb::actuator {

class LinuxMemorySyscalls final : public MemorySyscalls {
 public:
  // The frame-to-node map is read from sys_root once, at the first page map read: one instance
  // serves one job, so memory hot-plugged later is seen by the next job.
  explicit LinuxMemorySyscalls(std::filesystem::path proc_root = "/proc",
                               std::filesystem::path sys_root = "/sys");
  ~LinuxMemorySyscalls() override;
  LinuxMemorySyscalls(const LinuxMemorySyscalls&) = delete;
  LinuxMemorySyscalls& operator=(const LinuxMemorySyscalls&) = delete;

  SyscallResult move_pages(int pid, std::span<const std::uintptr_t> pages,
                           std::span<const int> nodes, std::span<int> status,
                           bool move_all) override;
  SyscallResult migrate_pages(int pid, NodeId from, NodeId to) override;
  Result<std::vector<ResidentRange>> resident_ranges(int pid, std::uintptr_t start,
                                                     std::uintptr_t end) override;
  Result<NodeMemory> node_memory(NodeId node) override;
  Result<int> open_pidfd(int pid) override;
  bool pidfd_exited(int pidfd) override;
  void close_pidfd(int pidfd) override;
  Clock::time_point now() override;
  void sleep_for(Clock::duration duration) override;

 private:
  Result<std::vector<ResidentRange>> scan_ioctl(int fd, std::uintptr_t start, std::uintptr_t end);
  Result<std::vector<ResidentRange>> read_entries(int fd, std::uintptr_t start, std::uintptr_t end);
  // Adds the node (and sharing) of PAGEMAP_SCAN's ranges from the page map where that pays.
  Result<std::vector<ResidentRange>> place(int fd, std::vector<ResidentRange> scanned);
  FrameNodes::Span span_of_frame(std::uint64_t frame);
  // True once frame numbers proved hidden or sysfs lists no memory blocks: no page can be placed.
  bool frames_unreadable() const;

  std::filesystem::path proc_root_;
  std::filesystem::path sys_root_;
  std::optional<FrameNodes> frame_nodes_;
  bool frame_nodes_tried_ = false;
  bool frames_hidden_ = false;  // frame numbers read as zero: no CAP_SYS_ADMIN
  bool scan_ioctl_supported_ = true;
  int page_flags_ = -1;  // /proc/kpageflags, opened at the first page map read
  bool page_flags_tried_ = false;
  std::vector<std::uint64_t> buffer_;  // pagemap entries or PAGEMAP_SCAN regions
};

}  // namespace nb::actuator
