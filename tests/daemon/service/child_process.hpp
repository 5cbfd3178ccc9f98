#pragma once
// Runs a built binary as an operator would: argv without a shell, output to files in a temp
// dir, and a bounded wait. Used by the tests that drive numabalancerd and numabalancerctl.

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/temp_tree.hpp"

extern char** environ;

namespace nb::testing {

class ChildProcess {
 public:
  ChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& output_dir,
               const std::vector<std::string>& extra_environment = {}) {
    static int counter = 0;
    std::string stem = std::to_string(::getpid()) + "-" + std::to_string(++counter);
    stdout_path_ = output_dir / (stem + ".out");
    stderr_path_ = output_dir / (stem + ".err");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_path_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char*> args;
    for (const auto& arg : argv) {
      args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);
    std::vector<std::string> environment_storage;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      environment_storage.emplace_back(*entry);
    }
    for (const auto& entry : extra_environment) {
      environment_storage.push_back(entry);
    }
    std::vector<char*> environment;
    for (auto& entry : environment_storage) {
      environment.push_back(entry.data());
    }
    environment.push_back(nullptr);
    if (::posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environment.data()) != 0) {
      pid_ = -1;
    }
    posix_spawn_file_actions_destroy(&actions);
  }

  ~ChildProcess() {
    if (pid_ > 0 && !exit_status_) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool started() const { return pid_ > 0; }

  void signal(int number) const { ::kill(pid_, number); }

  // The raw waitpid status, or nullopt when still running at the deadline.
  std::optional<int> wait(std::chrono::milliseconds timeout) {
    if (pid_ <= 0) {
      return std::nullopt;  // never started: waitpid(-1) would reap someone else's child
    }
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!exit_status_) {
      int status = 0;
      pid_t done = ::waitpid(pid_, &status, WNOHANG);
      if (done == pid_) {
        exit_status_ = status;
        break;
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return exit_status_;
  }

  // The exit code, or -1 when it did not exit normally in time.
  int exit_code(std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    auto status = wait(timeout);
    return status && WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
  }

  std::string out() const { return read_file(stdout_path_); }
  std::string err() const { return read_file(stderr_path_); }

 private:
  pid_t pid_ = -1;
  std::optional<int> exit_status_;
  std::filesystem::path stdout_path_;
  std::filesystem::path stderr_path_;
};

inline std::string binary(const char* name) {
  return std::string(NB_BINARY_DIR) + "/" + name;
}

}  // namespace nb::testing
