#pragma once
// One daemon per host: an exclusive flock on the lock file, held for the daemon's life (the
// kernel drops it when the process dies, so a crash never leaves a stale lock). Only the holder
// may remove a leftover admin socket.

#include <sys/types.h>

#include <filesystem>
#include <optional>

#include "base/result.hpp"

namespace nb::service {

class InstanceLock {
 public:
  // Fails with EWOULDBLOCK when another live process holds it; the error names that pid.
  static Result<InstanceLock> acquire(const std::filesystem::path& path);

  InstanceLock(InstanceLock&& other) noexcept;
  InstanceLock& operator=(InstanceLock&& other) noexcept;
  InstanceLock(const InstanceLock&) = delete;
  InstanceLock& operator=(const InstanceLock&) = delete;
  ~InstanceLock();

 private:
  explicit InstanceLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// The pid written in a lock file, if any.
std::optional<pid_t> read_lock_holder(const std::filesystem::path& path);

// Called with the lock held: a socket file left by a dead daemon is removed; anything else at
// that path (a regular file, a directory) is refused rather than deleted.
Status remove_stale_socket(const std::filesystem::path& socket_path);

}  // namespace nb::service
