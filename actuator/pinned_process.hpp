#pragma once
// A process the job holds by a pidfd from the moment it reads its pid, so that it acts on that
// process and no other. A pid names another process once the first is reaped, and a process
// can move to another cgroup; the pidfd sees the first (it polls exited before the pid can be
// reused), the process's start time and /proc/PID/cgroup the rest. Every call on the process is
// checked before and after: a pidfd still alive after a call proves the pid named this process
// during it.

#include <cstdint>
#include <filesystem>
#include <optional>

#include "actuator/memory_syscalls.hpp"
#include "actuator/process_identity.hpp"
#include "base/result.hpp"

namespace nb::actuator {

class PinnedProcess {
 public:
  // Opens a pidfd on `pid`, then reads its start time and, for a cgroup's process, confirms that
  // it is in `cgroup` or below. A vanished() error when it is gone or not in the cgroup.
  static Result<PinnedProcess> pin(MemorySyscalls& syscalls, std::filesystem::path proc_root,
                                   int pid, std::optional<CgroupName> cgroup);

  ~PinnedProcess();
  PinnedProcess(PinnedProcess&& other) noexcept;
  PinnedProcess& operator=(PinnedProcess&& other) noexcept;
  PinnedProcess(const PinnedProcess&) = delete;
  PinnedProcess& operator=(const PinnedProcess&) = delete;

  int pid() const { return pid_; }

  // Whether the pid still names the pinned process and it is still in its cgroup: the pidfd has
  // not polled exited, the start time is the one read when it was pinned, and /proc/PID/cgroup
  // is under the target. Once false, always false.
  bool still_same();

  // Closes the pidfd once the job is done with the process, so that a job over many processes
  // holds few descriptors at a time.
  void release();

 private:
  PinnedProcess(MemorySyscalls& syscalls, std::filesystem::path proc_root, int pid,
                std::optional<CgroupName> cgroup);
  bool cgroup_holds_it() const;

  MemorySyscalls* syscalls_;
  std::filesystem::path proc_root_;
  int pid_;
  std::optional<CgroupName> cgroup_;
  int pidfd_ = -1;
  std::uint64_t start_time_ = 0;
  bool gone_ = false;
};

}  // namespace nb::actuator
