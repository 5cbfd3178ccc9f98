#pragma once
// A migration job's test bench: three nodes of 16 GiB with 8 GiB free each behind the fake
// kernel, processes built from 4 KiB pages, and a job that runs without rate limit or fast path
// unless a test asks for them. The job's unit tests and its end-to-end tests share it.

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "actuator/migration_job.hpp"
#include "actuator/pinned_process.hpp"
#include "tests/actuator/fake_memory.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::actuator::testing {

inline constexpr std::uintptr_t kBase = 0x10000000;
inline constexpr Bytes kPage = 4 * kKiB;

class JobFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    memory.add_node(0, 16 * kGiB, 8 * kGiB);
    memory.add_node(1, 16 * kGiB, 8 * kGiB);
    memory.add_node(2, 16 * kGiB, 8 * kGiB);
    options.source_node = 0;
    options.rate_limit_mib_per_s = 0;
    options.fast_path_max_bytes = 0;
    options.min_free_bytes = kGiB;
  }

  // A process with `pages` 4 KiB pages on `node` in one VMA starting at kBase.
  void add_process(int pid, std::int64_t pages, NodeId node = 0, std::uintptr_t start = kBase) {
    memory.add_vma(pid, start, start + static_cast<std::uintptr_t>(pages * kPage));
    memory.add_pages(pid, start, pages, node);
  }

  MigrationTarget target(int pid, std::vector<NodeId> dests = {1}) {
    MigrationTarget t;
    t.container_id = "pid-" + std::to_string(pid);
    t.pid = pid;
    t.dest_nodes = std::move(dests);
    return t;
  }

  MigrationReport run(const std::vector<MigrationTarget>& targets) {
    return run_migration(targets, options, memory, tree.path("proc"), cancel,
                         [this](const JobProgress& p) { progress.push_back(p); });
  }

  // The process pinned as a job pins it, for the units that work on one (the walk, the mover).
  PinnedProcess& pin(int pid) {
    pinned.emplace(PinnedProcess::pin(memory, tree.path("proc"), pid, std::nullopt).value());
    return *pinned;
  }

  std::vector<std::size_t> move_call_sizes() const {
    std::vector<std::size_t> sizes;
    for (const auto& call : memory.calls) {
      if (!call.query) {
        sizes.push_back(call.pages.size());
      }
    }
    return sizes;
  }

  nb::testing::TempTree tree;
  FakeMemory memory{tree};
  std::optional<PinnedProcess> pinned;  // closes its pidfd before the fake kernel goes
  std::atomic<bool> cancel{false};
  JobOptions options;
  std::vector<JobProgress> progress;
};

}  // namespace nb::actuator::testing
