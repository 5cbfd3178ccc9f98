#pragma once
// `[eviction] action`: what happens to a container the policy marks for eviction. `none` only
// reports it; `freeze` writes cgroup.freeze (v2); `kill` writes cgroup.kill on v2 and SIGKILLs
// each process on v1; `exec` runs the configured argv without a shell, with the container, node
// and reason in its environment, and kills it when it outlives the timeout.

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/config/config.hpp"

namespace nb::service {

struct EvictionRequest {
  std::string container_id;
  std::filesystem::path cgroup_dir;
  bool cgroup_v2 = true;
  NodeId node = 0;
  std::string reason;
};

struct EvictionResult {
  std::string action;
  bool acted = false;   // false for `none`
  int signalled = 0;    // kill on v1: processes sent SIGKILL
  int vanished = 0;     // processes gone before the signal (a normal outcome)
  int exit_status = 0;  // exec: the command's exit status
  std::string detail;
};

Result<EvictionResult> evict(const config::EvictionConfig& config, const EvictionRequest& request);

// Every pid of a cgroup and its descendants, from their cgroup.procs files.
Result<std::vector<pid_t>> cgroup_processes(const std::filesystem::path& cgroup_dir);

struct CommandResult {
  int exit_status = 0;  // as from waitpid; see WIFEXITED/WEXITSTATUS
  bool timed_out = false;
};

// argv[0] is searched in PATH; `extra_environment` entries are "NAME=value", added to ours.
Result<CommandResult> run_command(const std::vector<std::string>& argv,
                                  const std::vector<std::string>& extra_environment,
                                  std::chrono::milliseconds timeout);

}  // namespace nb::service
