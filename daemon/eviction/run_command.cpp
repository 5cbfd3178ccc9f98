#include "daemon/eviction/run_command.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <string_view>
#include <thread>

extern char** environ;

namespace nb::eviction {

Result<CommandResult> run_command(const std::vector<std::string>& argv,
                                  const std::vector<std::string>& extra_environment,
                                  std::chrono::milliseconds timeout) {
  std::vector<char*> args;
  for (const auto& arg : argv) {
    args.push_back(const_cast<char*>(arg.c_str()));
  }
  args.push_back(nullptr);
  std::vector<std::string> names;
  for (const auto& entry : extra_environment) {
    names.push_back(entry.substr(0, entry.find('=') + 1));
  }
  std::vector<char*> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    bool overridden = false;
    for (const auto& name : names) {
      overridden = overridden || std::string_view(*entry).starts_with(name);
    }
    if (!overridden) {
      environment.push_back(*entry);
    }
  }
  for (const auto& entry : extra_environment) {
    environment.push_back(const_cast<char*>(entry.c_str()));
  }
  environment.push_back(nullptr);

  pid_t child = 0;
  int code = ::posix_spawnp(&child, args[0], nullptr, nullptr, args.data(), environment.data());
  if (code != 0) {
    return make_error(code, "run " + argv.front());
  }
  auto deadline = std::chrono::steady_clock::now() + timeout;
  CommandResult result;
  // Polling keeps this free of SIGCHLD handling, which belongs to nobody else in the daemon.
  auto pause = std::chrono::milliseconds(1);
  while (true) {
    int status = 0;
    pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) {
      result.exit_status = status;
      return result;
    }
    if (done < 0 && errno != EINTR) {
      return make_error(errno, "wait for " + argv.front());
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      result.exit_status = status;
      result.timed_out = true;
      return result;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

}  // namespace nb::eviction
