#pragma once
// MemorySyscalls on the running kernel: libnuma's move_pages/migrate_pages wrappers, pagemap for
// resident ranges (the PAGEMAP_SCAN ioctl from Linux 6.7, else reading pagemap entries) and
// libnuma for node sizes.

#include <cstdint>
#include <filesystem>
#include <vector>

#include "actuator/memory_syscalls.hpp"

namespace nb::actuator {

class LinuxMemorySyscalls final : public MemorySyscalls {
 public:
  explicit LinuxMemorySyscalls(std::filesystem::path proc_root = "/proc");

  SyscallResult move_pages(int pid, std::span<const std::uintptr_t> pages,
                           std::span<const int> nodes, std::span<int> status,
                           bool move_all) override;
  SyscallResult migrate_pages(int pid, NodeId from, NodeId to) override;
  Result<std::vector<ResidentRange>> resident_ranges(int pid, std::uintptr_t start,
                                                     std::uintptr_t end) override;
  Result<NodeMemory> node_memory(NodeId node) override;
  Clock::time_point now() override;
  void sleep_for(Clock::duration duration) override;

 private:
  Result<std::vector<ResidentRange>> scan_ioctl(int fd, std::uintptr_t start, std::uintptr_t end);
  Result<std::vector<ResidentRange>> read_entries(int fd, std::uintptr_t start, std::uintptr_t end);

  std::filesystem::path proc_root_;
  bool scan_ioctl_supported_ = true;
  std::vector<std::uint64_t> buffer_;  // pagemap entries or PAGEMAP_SCAN regions
};

}  // namespace nb::actuator
