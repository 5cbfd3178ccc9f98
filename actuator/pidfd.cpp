#include "actuator/pidfd.hpp"

#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <string>

namespace nb::actuator {

Result<int> open_pidfd(int pid) {
  long fd = ::syscall(SYS_pidfd_open, pid, 0);
  if (fd < 0) {
    return make_error(errno, "pidfd_open " + std::to_string(pid));
  }
  return static_cast<int>(fd);
}

bool pidfd_exited(int pidfd) {
  pollfd entry{pidfd, POLLIN, 0};
  int ready = 0;
  do {
    ready = ::poll(&entry, 1, 0);
  } while (ready < 0 && errno == EINTR);
  return ready != 0;
}

Status pidfd_send_signal(int pidfd, int signal) {
  if (::syscall(SYS_pidfd_send_signal, pidfd, signal, nullptr, 0) < 0) {
    return make_error(errno, "pidfd_send_signal");
  }
  return Ok{};
}

}  // namespace nb::actuator
