#pragma once
// The fake kernel with a hook that runs just before each move_pages call reaches it: the moment
// where, on a real host, a process forks, another agent (autonuma, a second balancer) moves the
// pages the walk just read about, or a cgroup gains a member.

#include <functional>

#include "tests/actuator/fake_memory.hpp"

namespace nb::reliability {

class HookedMemory final : public actuator::MemorySyscalls {
 public:
  explicit HookedMemory(actuator::testing::FakeMemory& inner) : inner_(inner) {}

  // `query` is true for a move_pages call that only asks where pages are.
  std::function<void(int pid, bool query)> before_move;

  actuator::SyscallResult move_pages(int pid, std::span<const std::uintptr_t> pages,
                                     std::span<const int> nodes, std::span<int> status,
                                     bool move_all) override {
    if (before_move) {
      before_move(pid, nodes.empty());
    }
    return inner_.move_pages(pid, pages, nodes, status, move_all);
  }
  actuator::SyscallResult migrate_pages(int pid, NodeId from, NodeId to) override {
    return inner_.migrate_pages(pid, from, to);
  }
  Result<std::vector<actuator::ResidentRange>> resident_ranges(int pid, std::uintptr_t start,
                                                               std::uintptr_t end) override {
    return inner_.resident_ranges(pid, start, end);
  }
  Result<actuator::NodeMemory> node_memory(NodeId node) override {
    return inner_.node_memory(node);
  }
  Result<int> open_pidfd(int pid) override { return inner_.open_pidfd(pid); }
  bool pidfd_exited(int pidfd) override { return inner_.pidfd_exited(pidfd); }
  void close_pidfd(int pidfd) override { inner_.close_pidfd(pidfd); }
  actuator::Clock::time_point now() override { return inner_.now(); }
  void sleep_for(actuator::Clock::duration duration) override { inner_.sleep_for(duration); }

 private:
  actuator::testing::FakeMemory& inner_;
};

}  // namespace nb::reliability
