#include "daemon/eviction/run_command.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <thread>

namespace nb::eviction {
namespace {

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const auto& s : strings) {
    pointers.push_back(const_cast<char*>(s.c_str()));
  }
  pointers.push_back(nullptr);
  return pointers;
}

// Starts the child leading a new process group, with every descriptor above 2 closed: a CLOEXEC
// flag forgotten anywhere in the daemon (or a library) must not leak into it.
Result<pid_t> spawn(const std::vector<std::string>& argv,
                    const std::vector<std::string>& environment) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawnattr_init(&attributes);
  int code = ::posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  if (code == 0) {
    code = ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  }
  if (code == 0) {
    code = ::posix_spawnattr_setpgroup(&attributes, 0);
  }
  pid_t child = 0;
  if (code == 0) {
    auto args = c_strings(argv);
    auto envp = c_strings(environment);
    code = ::posix_spawnp(&child, args[0], &actions, &attributes, args.data(), envp.data());
  }
  ::posix_spawnattr_destroy(&attributes);
  ::posix_spawn_file_actions_destroy(&actions);
  if (code != 0) {
    return make_error(code, "run " + argv.front());
  }
  return child;
}

}  // namespace

std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  const char* path = std::getenv("PATH");
  std::vector<std::string> environment{std::string("PATH=") +
                                       (path != nullptr && *path != '\0' ? path : kDefaultPath)};
  environment.insert(environment.end(), extra.begin(), extra.end());
  return environment;
}

Result<CommandResult> run_command(const std::vector<std::string>& argv,
                                  const std::vector<std::string>& environment,
                                  std::chrono::milliseconds timeout) {
  auto child = spawn(argv, environment);
  if (!child) {
    return child.error();
  }
  auto deadline = std::chrono::steady_clock::now() + timeout;
  CommandResult result;
  // Polling keeps this free of SIGCHLD handling, which belongs to nobody else in the daemon.
  auto pause = std::chrono::milliseconds(1);
  while (true) {
    int status = 0;
    pid_t done = ::waitpid(*child, &status, WNOHANG);
    if (done == *child) {
      result.exit_status = status;
      return result;
    }
    if (done < 0 && errno != EINTR) {
      return make_error(errno, "wait for " + argv.front());
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      // The group is the child's pid: the child leads it, so its descendants die with it
      // unless they made groups of their own.
      ::kill(-*child, SIGKILL);
      ::waitpid(*child, &status, 0);
      result.exit_status = status;
      result.timed_out = true;
      return result;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

}  // namespace nb::eviction
