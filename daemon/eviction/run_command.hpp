#pragma once
// A program run to completion or to a timeout, without a shell.

#include <chrono>
#include <string>
#include <vector>

#include "base/result.hpp"

namespace nb::eviction {

struct CommandResult {
  int exit_status = 0;  // as from waitpid; see WIFEXITED/WEXITSTATUS
  bool timed_out = false;
};

// argv[0] is searched in PATH; `extra_environment` entries are "NAME=value", added to ours.
Result<CommandResult> run_command(const std::vector<std::string>& argv,
                                  const std::vector<std::string>& extra_environment,
                                  std::chrono::milliseconds timeout);

}  // namespace nb::eviction
