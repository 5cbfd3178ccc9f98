#include "daemon/sim/simulated_memory.hpp"

#include <cerrno>

namespace nb::sim {

actuator::SyscallResult SimulatedMemory::move_pages(int, std::span<const std::uintptr_t>,
                                                    std::span<const int>, std::span<int>, bool) {
  return {-1, ENOSYS};
}

actuator::SyscallResult SimulatedMemory::migrate_pages(int, NodeId, NodeId) {
  return {-1, ENOSYS};
}

Result<std::vector<actuator::ResidentRange>> SimulatedMemory::resident_ranges(int, std::uintptr_t,
                                                                              std::uintptr_t) {
  return make_error(ENOSYS, "the simulated host has no processes");
}

Result<int> SimulatedMemory::open_pidfd(int) {
  return make_error(ENOSYS, "the simulated host has no processes");
}

bool SimulatedMemory::pidfd_exited(int) {
  return true;
}

void SimulatedMemory::close_pidfd(int) {}

Result<actuator::NodeMemory> SimulatedMemory::node_memory(NodeId node) {
  const std::size_t index = host_.index_of(node);
  if (index == host_.node_count()) {
    return make_error(ENODEV, "node " + std::to_string(node) + " is not in the scenario");
  }
  return actuator::NodeMemory{host_.node(index).memory, host_.free_bytes(index)};
}

}  // namespace nb::sim
