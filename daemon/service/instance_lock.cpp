#include "daemon/service/instance_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <utility>

namespace nb::service {

Result<InstanceLock> InstanceLock::acquire(const std::filesystem::path& path) {
  std::error_code ignored;
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ignored);
  }
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return make_error(errno, "open lock file " + path.string());
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int code = errno;
    ::close(fd);
    std::string who = "another numabalancerd";
    if (auto holder = read_lock_holder(path)) {
      who += " (pid " + std::to_string(*holder) + ")";
    }
    return make_error(code, who + " holds " + path.string() + "; refusing to start a second one");
  }
  std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    int code = errno;
    ::close(fd);
    return make_error(code, "write lock file " + path.string());
  }
  return InstanceLock(fd);
}

InstanceLock::InstanceLock(InstanceLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

InstanceLock& InstanceLock::operator=(InstanceLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) {
      ::close(fd_);
    }
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

InstanceLock::~InstanceLock() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

std::optional<pid_t> read_lock_holder(const std::filesystem::path& path) {
  std::ifstream in(path);
  long long pid = 0;
  if (in >> pid && pid > 0) {
    return static_cast<pid_t>(pid);
  }
  return std::nullopt;
}

Status remove_stale_socket(const std::filesystem::path& socket_path) {
  struct stat info {};
  if (::lstat(socket_path.c_str(), &info) != 0) {
    if (errno == ENOENT) {
      return Ok{};
    }
    return make_error(errno, "stat " + socket_path.string());
  }
  if (!S_ISSOCK(info.st_mode)) {
    return make_error(EEXIST,
                      socket_path.string() + " exists and is not a socket; not removing it");
  }
  if (::unlink(socket_path.c_str()) != 0 && errno != ENOENT) {
    return make_error(errno, "remove stale socket " + socket_path.string());
  }
  return Ok{};
}

}  // namespace nb::service
