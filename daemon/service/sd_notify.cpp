#include "daemon/service/sd_notify.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace nb::service {

SystemdNotifier SystemdNotifier::from_environment() {
  const char* socket = std::getenv("NOTIFY_SOCKET");
  std::optional<std::chrono::microseconds> watchdog;
  const char* usec = std::getenv("WATCHDOG_USEC");
  const char* pid = std::getenv("WATCHDOG_PID");
  // WATCHDOG_PID, when set, names the process the watchdog is meant for (not a child of it).
  bool for_us = pid == nullptr || std::strtoll(pid, nullptr, 10) == ::getpid();
  if (usec != nullptr && for_us) {
    long long value = std::strtoll(usec, nullptr, 10);
    if (value > 0) {
      watchdog = std::chrono::microseconds(value);
    }
  }
  return SystemdNotifier(socket != nullptr ? socket : "", watchdog);
}

SystemdNotifier::SystemdNotifier(std::string socket_path,
                                 std::optional<std::chrono::microseconds> watchdog)
    : socket_path_(std::move(socket_path)), watchdog_(watchdog) {}

Status SystemdNotifier::notify(std::string_view state) const {
  if (!enabled()) {
    return Ok{};
  }
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket_path_.size() >= sizeof address.sun_path) {
    return make_error(ENAMETOOLONG, "NOTIFY_SOCKET " + socket_path_);
  }
  std::memcpy(address.sun_path, socket_path_.data(), socket_path_.size());
  socklen_t length = offsetof(sockaddr_un, sun_path) + socket_path_.size();
  if (address.sun_path[0] == '@') {
    address.sun_path[0] = '\0';
  } else {
    length += 1;
  }
  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return make_error(errno, "socket for NOTIFY_SOCKET");
  }
  ssize_t sent = ::sendto(fd, state.data(), state.size(), MSG_NOSIGNAL,
                          reinterpret_cast<const sockaddr*>(&address), length);
  int code = errno;
  ::close(fd);
  if (sent < 0) {
    return make_error(code, "send to NOTIFY_SOCKET " + socket_path_);
  }
  return Ok{};
}

Status SystemdNotifier::ready(std::string_view status) const {
  return notify("READY=1\nSTATUS=" + std::string(status));
}

Status SystemdNotifier::status(std::string_view status) const {
  return notify("STATUS=" + std::string(status));
}

Status SystemdNotifier::stopping() const {
  return notify("STOPPING=1");
}

Status SystemdNotifier::watchdog() const {
  if (!watchdog_) {
    return Ok{};
  }
  return notify("WATCHDOG=1");
}

}  // namespace nb::service
