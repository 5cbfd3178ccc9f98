#pragma once
// A migration job as the daemon tracks it; shared by daemon.cpp and daemon_commands.cpp only.

#include <atomic>
#include <thread>
#include <utility>

#include "daemon/service/daemon.hpp"

namespace nb::service {

struct Daemon::Job {
  std::uint64_t id = 0;
  std::string kind;  // round, manual
  std::uint64_t round_number = 0;
  TimePoint started;
  NodeId source_node = 0;
  std::vector<NodeId> dest_nodes;
  Bytes budget = 0;
  bool dry_run = false;
  actuator::JobProgress progress;
  std::atomic<bool> cancel{false};
  std::thread thread;
};

struct Daemon::JobResult {
  std::optional<actuator::MigrationReport> report;
  std::vector<std::pair<eviction::EvictionRequest, Result<eviction::EvictionResult>>> evictions;
  std::string error;
};

}  // namespace nb::service
