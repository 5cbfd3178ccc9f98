#pragma once
// The actuator's syscall seam over the modelled host, for the one call the destination picker
// makes: each node's total and free memory. The mover moves bytes in the model itself, so every
// page call answers ENOSYS.

#include "actuator/memory_syscalls.hpp"
#include "daemon/sim/host_model.hpp"

namespace nb::sim {

class SimulatedMemory final : public actuator::MemorySyscalls {
 public:
  explicit SimulatedMemory(const HostModel& host) : host_(host) {}

  actuator::SyscallResult move_pages(int pid, std::span<const std::uintptr_t> pages,
                                     std::span<const int> nodes, std::span<int> status,
                                     bool move_all) override;
  actuator::SyscallResult migrate_pages(int pid, NodeId from, NodeId to) override;
  Result<std::vector<actuator::ResidentRange>> resident_ranges(int pid, std::uintptr_t start,
                                                               std::uintptr_t end) override;
  Result<actuator::NodeMemory> node_memory(NodeId node) override;
  Result<int> open_pidfd(int pid) override;
  bool pidfd_exited(int pidfd) override;
  void close_pidfd(int pidfd) override;
  actuator::Clock::time_point now() override { return {}; }
  void sleep_for(actuator::Clock::duration) override {}

 private:
  const HostModel& host_;
};

}  // namespace nb::sim
