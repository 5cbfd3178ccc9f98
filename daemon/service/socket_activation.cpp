#include "daemon/service/socket_activation.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace nb::service {
namespace {

std::string take_variable(const char* name) {
  const char* value = std::getenv(name);
  std::string copy = value != nullptr ? value : "";
  ::unsetenv(name);
  return copy;
}

Result<int> socket_option(int fd, int option, const std::string& what) {
  int value = 0;
  socklen_t length = sizeof value;
  if (::getsockopt(fd, SOL_SOCKET, option, &value, &length) != 0) {
    return make_error(errno, "getsockopt " + what);
  }
  return value;
}

// The path a listening AF_UNIX stream socket is bound to; anything else is refused.
Result<std::filesystem::path> listening_unix_path(int fd) {
  std::string what = "fd " + std::to_string(fd) + " from systemd (LISTEN_FDS)";
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    return make_error(errno, what);
  }
  if (!S_ISSOCK(info.st_mode)) {
    return make_error(ENOTSOCK, what + " is not a socket");
  }
  auto domain = socket_option(fd, SO_DOMAIN, what);
  auto type = socket_option(fd, SO_TYPE, what);
  auto listening = socket_option(fd, SO_ACCEPTCONN, what);
  for (const auto* result : {&domain, &type, &listening}) {
    if (!*result) {
      return result->error();
    }
  }
  if (*domain != AF_UNIX || *type != SOCK_STREAM) {
    return make_error(EPROTOTYPE, what + " is not a Unix stream socket (ListenStream=PATH)");
  }
  if (*listening == 0) {
    return make_error(EINVAL, what + " is not listening");
  }
  sockaddr_un address{};
  socklen_t length = sizeof address;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return make_error(errno, "getsockname " + what);
  }
  auto path_bytes = length > offsetof(sockaddr_un, sun_path)
                        ? static_cast<std::size_t>(length - offsetof(sockaddr_un, sun_path))
                        : 0;
  if (path_bytes == 0 || address.sun_path[0] == '\0') {
    return make_error(EINVAL, what + " is not bound to a path");
  }
  return std::filesystem::path(
      std::string(address.sun_path, ::strnlen(address.sun_path, path_bytes)));
}

}  // namespace

Result<std::optional<ActivatedSocket>> take_activated_socket(int first_fd) {
  std::string pid = take_variable("LISTEN_PID");
  std::string count = take_variable("LISTEN_FDS");
  take_variable("LISTEN_FDNAMES");
  if (pid.empty() || count.empty() || std::strtoll(pid.c_str(), nullptr, 10) != ::getpid()) {
    return std::optional<ActivatedSocket>{};
  }
  if (count != "1") {
    return make_error(EINVAL, "LISTEN_FDS=" + count +
                                  ": numabalancerd takes exactly one socket, the admin socket of "
                                  "numabalancerd.socket");
  }
  auto path = listening_unix_path(first_fd);
  if (!path) {
    return path.error();
  }
  int flags = ::fcntl(first_fd, F_GETFD);
  if (flags < 0 || ::fcntl(first_fd, F_SETFD, flags | FD_CLOEXEC) != 0) {
    return make_error(errno, "set close-on-exec on fd " + std::to_string(first_fd));
  }
  return std::optional<ActivatedSocket>(ActivatedSocket{first_fd, std::move(path.value())});
}

}  // namespace nb::service
