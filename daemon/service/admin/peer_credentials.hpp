#pragma once
// Who is on the other end of an admin connection, and whether they may change the daemon's
// state: uid 0, or the admin group as primary or supplementary group. SO_PEERCRED gives uid, gid
// and pid; the supplementary groups come from /proc/<pid>/status.

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"

namespace nb::service {

struct PeerCredentials {
  pid_t pid = 0;
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;  // supplementary; empty when the process could not be read
};

Result<PeerCredentials> peer_credentials(int socket_fd, const std::filesystem::path& proc_root);

// The `Groups:` line of /proc/<pid>/status.
Result<std::vector<gid_t>> read_supplementary_groups(const std::filesystem::path& proc_root,
                                                     pid_t pid);

std::optional<gid_t> lookup_group(const std::string& name);

bool may_mutate(const PeerCredentials& peer, std::optional<gid_t> admin_group);

}  // namespace nb::service
