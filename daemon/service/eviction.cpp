#include "daemon/service/eviction.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <thread>

extern char** environ;

namespace nb::service {

namespace {

Status write_control(const std::filesystem::path& file, std::string_view value) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    return make_error(errno, "open " + file.string());
  }
  ssize_t written = ::write(fd, value.data(), value.size());
  int code = errno;
  ::close(fd);
  if (written < 0) {
    return make_error(code, "write " + file.string());
  }
  return Ok{};
}

Result<EvictionResult> kill_v1(const EvictionRequest& request, EvictionResult result) {
  auto pids = cgroup_processes(request.cgroup_dir);
  if (!pids) {
    return pids.error();
  }
  for (pid_t pid : pids.value()) {
    if (::kill(pid, SIGKILL) == 0) {
      ++result.signalled;
    } else if (errno == ESRCH) {
      ++result.vanished;
    } else {
      return make_error(errno, "kill " + std::to_string(pid));
    }
  }
  result.acted = true;
  result.detail = "SIGKILL sent to " + std::to_string(result.signalled) + " processes";
  return result;
}

}  // namespace

Result<EvictionResult> evict(const config::EvictionConfig& config, const EvictionRequest& request) {
  EvictionResult result;
  result.action = config.action;
  if (config.action == "none") {
    result.detail = "reported only ([eviction] action = \"none\")";
    return result;
  }
  if (config.action == "freeze") {
    if (!request.cgroup_v2) {
      return make_error(ENOTSUP, "freeze " + request.container_id + ": needs cgroup v2");
    }
    if (auto status = write_control(request.cgroup_dir / "cgroup.freeze", "1"); !status) {
      return status.error();
    }
    result.acted = true;
    result.detail = "frozen";
    return result;
  }
  if (config.action == "kill") {
    if (!request.cgroup_v2) {
      return kill_v1(request, std::move(result));
    }
    if (auto status = write_control(request.cgroup_dir / "cgroup.kill", "1"); !status) {
      return status.error();
    }
    result.acted = true;
    result.detail = "cgroup.kill written";
    return result;
  }
  if (config.action == "exec") {
    if (config.exec.empty()) {
      return make_error(EINVAL, "[eviction] exec is empty");
    }
    auto ran = run_command(config.exec,
                           {"NUMABALANCER_CGROUP=" + request.cgroup_dir.string(),
                            "NUMABALANCER_NODE=" + std::to_string(request.node),
                            "NUMABALANCER_REASON=" + request.reason},
                           config.timeout);
    if (!ran) {
      return ran.error();
    }
    result.acted = true;
    result.exit_status = ran->exit_status;
    if (ran->timed_out) {
      return make_error(ETIMEDOUT, "eviction command " + config.exec.front() + " timed out");
    }
    if (!WIFEXITED(ran->exit_status) || WEXITSTATUS(ran->exit_status) != 0) {
      return make_error(0, "eviction command " + config.exec.front() + " failed (status " +
                               std::to_string(ran->exit_status) + ")");
    }
    result.detail = "command exited 0";
    return result;
  }
  return make_error(EINVAL, "unknown eviction action \"" + config.action + "\"");
}

Result<std::vector<pid_t>> cgroup_processes(const std::filesystem::path& cgroup_dir) {
  std::vector<pid_t> pids;
  std::error_code error;
  std::vector<std::filesystem::path> dirs{cgroup_dir};
  for (std::filesystem::recursive_directory_iterator it(cgroup_dir, error), end;
       !error && it != end; it.increment(error)) {
    if (it->is_directory(error)) {
      dirs.push_back(it->path());
    }
  }
  if (error && error != std::errc::no_such_file_or_directory) {
    return make_error(error.value(), "list " + cgroup_dir.string());
  }
  bool any = false;
  for (const auto& dir : dirs) {
    std::ifstream in(dir / "cgroup.procs");
    if (!in) {
      continue;  // a child cgroup removed meanwhile
    }
    any = true;
    long long pid = 0;
    while (in >> pid) {
      pids.push_back(static_cast<pid_t>(pid));
    }
  }
  if (!any) {
    return make_error(ENOENT, "read " + (cgroup_dir / "cgroup.procs").string());
  }
  return pids;
}

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

}  // namespace nb::service
