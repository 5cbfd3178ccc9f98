#pragma once
// A program run to completion or to a timeout, without a shell, and without anything of the
// daemon's it should not have: no descriptor but 0, 1 and 2 (Asio's sockets and the admin
// socket are not close-on-exec), only the environment it is given, and in a process group of
// its own so that a timeout kills whatever it started too.

#include <chrono>
#include <string>
#include <vector>

#include "base/result.hpp"

namespace nb::eviction {

struct CommandResult {
  int exit_status = 0;  // as from waitpid; see WIFEXITED/WEXITSTATUS
  bool timed_out = false;
};

// Used when the daemon itself has no PATH.
inline constexpr const char* kDefaultPath =
    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// PATH=<ours, or kDefaultPath> followed by `extra`: the whole environment of a child.
std::vector<std::string> child_environment(const std::vector<std::string>& extra);

// argv[0] is searched in our PATH; `environment` ("NAME=value") is the child's whole
// environment. On timeout the child's process group gets SIGKILL.
Result<CommandResult> run_command(const std::vector<std::string>& argv,
                                  const std::vector<std::string>& environment,
                                  std::chrono::milliseconds timeout);

}  // namespace nb::eviction
