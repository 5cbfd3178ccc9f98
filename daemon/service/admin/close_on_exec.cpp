#include "daemon/service/admin/close_on_exec.hpp"

#include <fcntl.h>

#include <string>

namespace nb::service {

Status set_close_on_exec(int fd) {
  int flags = ::fcntl(fd, F_GETFD);
  if (flags < 0 || ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC) != 0) {
    return make_error(errno, "set close-on-exec on fd " + std::to_string(fd));
  }
  return Ok{};
}

}  // namespace nb::service
