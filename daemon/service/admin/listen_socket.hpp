#pragma once
// The admin server's listening socket: the one systemd passed (numabalancerd.socket), or one
// bound here whose file is never more open than [admin] socket_mode.

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "daemon/service/socket_activation.hpp"

namespace nb::service {

struct ListenSocketSpec {
  std::filesystem::path path;  // [admin] socket
  unsigned mode = 0660;        // [admin] socket_mode
  std::optional<gid_t> gid;    // [admin] admin_group's id, when the group exists
  std::string group;           // its name, for messages
  std::optional<ActivatedSocket> activated;
};

struct ListenSocket {
  int fd = -1;             // listening
  bool owns_file = false;  // false when systemd created the file and removes it
};

// Activated: systemd's socket as it is (no bind, chmod or chown; a path other than spec.path is
// logged, naming both). Otherwise: bound at spec.path with spec.mode, its group set to spec.gid,
// listening.
Result<ListenSocket> open_listen_socket(const ListenSocketSpec& spec);

// Binds a Unix stream socket at `path` under umask(~mode & 0777), so that the file is created
// with `mode` and no wider; the previous umask is back before this returns. The umask is the
// process's: call it before other threads create files. Returns the bound, not listening, fd.
Result<int> bind_unix_socket(const std::filesystem::path& path, unsigned mode);

}  // namespace nb::service
