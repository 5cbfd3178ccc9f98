#pragma once
// systemd socket activation without libsystemd: the listening socket numabalancerd.socket passes
// as fd 3 (LISTEN_PID, LISTEN_FDS), checked to be the Unix stream socket the admin server serves.

#include <filesystem>
#include <optional>

#include "base/result.hpp"

namespace nb::service {

inline constexpr int kListenFdsStart = 3;  // SD_LISTEN_FDS_START

struct ActivatedSocket {
  int fd = -1;
  std::filesystem::path path;  // where systemd bound it (ListenStream=)
};

// The socket systemd passed to this process, or none when LISTEN_PID is unset or names another
// process. Always unsets LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES so that no child inherits
// them, and marks the adopted fd close-on-exec. More than one fd, or an fd that is not a
// listening AF_UNIX stream socket, is an error: the socket unit and the daemon disagree, and
// serving on something else would hide it. `first_fd` is a seam for tests.
Result<std::optional<ActivatedSocket>> take_activated_socket(int first_fd = kListenFdsStart);

}  // namespace nb::service
