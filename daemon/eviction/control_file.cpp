#include "daemon/eviction/control_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace nb::eviction {
namespace {

// numabalancerd runs as root without CAP_DAC_OVERRIDE (see numabalancerd.service), so a control
// file that a user owns (a delegated subtree: rootless containers, user services) keeps its
// owner's 0644 against the daemon. Saying so is the difference between "Permission denied" and
// an operator who knows what to change.
Error denied(int code, const std::filesystem::path& file) {
  struct stat info {};
  if ((code != EACCES && code != EPERM) || ::stat(file.c_str(), &info) != 0 || info.st_uid == 0) {
    return make_error(code, "open " + file.string());
  }
  return make_error(code, "open " + file.string() + " (owned by uid " +
                              std::to_string(info.st_uid) +
                              ": a delegated cgroup subtree, e.g. a rootless container or a user "
                              "service; writing it needs CAP_DAC_OVERRIDE, which numabalancerd "
                              "does not have)");
}

}  // namespace

Status write_control(const std::filesystem::path& file, std::string_view value) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    return denied(errno, file);
  }
  ssize_t written = ::write(fd, value.data(), value.size());
  int code = errno;
  ::close(fd);
  if (written < 0) {
    return make_error(code, "write " + file.string());
  }
  return Ok{};
}

}  // namespace nb::eviction
