#include "actuator/pinned_process.hpp"

#include <cerrno>
#include <string>
#include <utility>

namespace nb::actuator {
namespace {

bool out_of_descriptors(int error) {
  return error == EMFILE || error == ENFILE;
}

}  // namespace

PinnedProcess::PinnedProcess(MemorySyscalls& syscalls, std::filesystem::path proc_root, int pid,
                             std::optional<CgroupName> cgroup)
    : syscalls_(&syscalls),
      proc_root_(std::move(proc_root)),
      pid_(pid),
      cgroup_(std::move(cgroup)) {}

Result<PinnedProcess> PinnedProcess::pin(MemorySyscalls& syscalls, std::filesystem::path proc_root,
                                         int pid, std::optional<CgroupName> cgroup) {
  PinnedProcess pinned(syscalls, std::move(proc_root), pid, std::move(cgroup));
  auto pidfd = syscalls.open_pidfd(pid);
  if (pidfd) {
    pinned.pidfd_ = *pidfd;
  } else if (!out_of_descriptors(pidfd.error().code)) {
    return pidfd.error();
  }
  // Out of descriptors, the start time read now still tells a reused pid: still_same() opens the
  // pidfd when it can, and until then compares the start time alone.
  auto start = process_start_time(pinned.proc_root_, pid);
  if (!start) {
    return start.error();
  }
  pinned.start_time_ = *start;
  if (pinned.cgroup_) {
    auto within = process_in_cgroup(pinned.proc_root_, pid, *pinned.cgroup_);
    if (!within) {
      return within.error();
    }
    if (!*within) {
      return make_error(
          ESRCH, "process " + std::to_string(pid) + " has left cgroup " + pinned.cgroup_->path);
    }
  }
  return pinned;
}

PinnedProcess::~PinnedProcess() {
  release();
}

PinnedProcess::PinnedProcess(PinnedProcess&& other) noexcept
    : syscalls_(other.syscalls_),
      proc_root_(std::move(other.proc_root_)),
      pid_(other.pid_),
      cgroup_(std::move(other.cgroup_)),
      pidfd_(std::exchange(other.pidfd_, -1)),
      start_time_(other.start_time_),
      gone_(other.gone_) {}

PinnedProcess& PinnedProcess::operator=(PinnedProcess&& other) noexcept {
  if (this != &other) {
    release();
    syscalls_ = other.syscalls_;
    proc_root_ = std::move(other.proc_root_);
    pid_ = other.pid_;
    cgroup_ = std::move(other.cgroup_);
    pidfd_ = std::exchange(other.pidfd_, -1);
    start_time_ = other.start_time_;
    gone_ = other.gone_;
  }
  return *this;
}

bool PinnedProcess::still_same() {
  if (gone_) {
    return false;
  }
  if (pidfd_ < 0) {
    auto pidfd = syscalls_->open_pidfd(pid_);
    if (pidfd) {
      pidfd_ = *pidfd;
    } else if (!out_of_descriptors(pidfd.error().code)) {
      gone_ = true;
      return false;
    }
  }
  auto start = process_start_time(proc_root_, pid_);
  gone_ = (pidfd_ >= 0 && syscalls_->pidfd_exited(pidfd_)) || !start || *start != start_time_ ||
          !cgroup_holds_it();
  return !gone_;
}

void PinnedProcess::release() {
  if (pidfd_ >= 0) {
    syscalls_->close_pidfd(pidfd_);
    pidfd_ = -1;
  }
}

bool PinnedProcess::cgroup_holds_it() const {
  if (!cgroup_) {
    return true;
  }
  auto within = process_in_cgroup(proc_root_, pid_, *cgroup_);
  return within && *within;
}

}  // namespace nb::actuator
