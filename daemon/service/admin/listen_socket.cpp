#include "daemon/service/admin/listen_socket.hpp"

#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

namespace nb::service {
namespace {

ListenSocket adopt(const ActivatedSocket& activated, const std::filesystem::path& configured) {
  // systemd's ListenStream= decides where clients connect; refusing would only make the service
  // fail while the socket unit keeps accepting, so the mismatch is reported and the socket used.
  if (activated.path != configured) {
    spdlog::warn(
        "admin: systemd passed the socket {} but [admin] socket is {}; serving on {} (make "
        "numabalancerd.socket's ListenStream= and [admin] socket the same path)",
        activated.path.string(), configured.string(), activated.path.string());
  }
  return ListenSocket{activated.fd, false};
}

void set_group(const ListenSocketSpec& spec) {
  if (spec.gid) {
    if (::chown(spec.path.c_str(), static_cast<uid_t>(-1), *spec.gid) != 0) {
      spdlog::warn("admin: chgrp {} to {}: {}", spec.path.string(), spec.group,
                   std::strerror(errno));
    }
  } else if (!spec.group.empty()) {
    spdlog::warn("admin: group \"{}\" does not exist; only root may change the daemon's state",
                 spec.group);
  }
}

}  // namespace

Result<int> bind_unix_socket(const std::filesystem::path& path, unsigned mode) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.native().size() >= sizeof address.sun_path) {
    return make_error(ENAMETOOLONG, "bind admin socket " + path.string());
  }
  std::memcpy(address.sun_path, path.c_str(), path.native().size());
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return make_error(errno, "socket for " + path.string());
  }
  // bind creates the file with 0777 & ~umask: with this umask it is born with exactly `mode`,
  // so there is no moment between bind and a chmod in which anyone else may connect.
  mode_t previous = ::umask(static_cast<mode_t>(~mode & 0777));
  int bound = ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  int code = errno;
  ::umask(previous);
  if (bound != 0) {
    ::close(fd);
    return make_error(code, "bind admin socket " + path.string());
  }
  return fd;
}

Result<ListenSocket> open_listen_socket(const ListenSocketSpec& spec) {
  if (spec.activated) {
    return adopt(*spec.activated, spec.path);
  }
  if (spec.path.has_parent_path()) {
    std::error_code ignored;
    std::filesystem::create_directories(spec.path.parent_path(), ignored);
  }
  auto fd = bind_unix_socket(spec.path, spec.mode);
  if (!fd) {
    return fd.error();
  }
  set_group(spec);
  if (::listen(*fd, SOMAXCONN) != 0) {
    int code = errno;
    ::close(*fd);
    ::unlink(spec.path.c_str());
    return make_error(code, "listen on admin socket " + spec.path.string());
  }
  return ListenSocket{*fd, true};
}

}  // namespace nb::service
