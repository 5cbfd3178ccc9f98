#pragma once
// Who is on the other end of an admin connection, and whether they may change the daemon's
// state: uid 0, or the admin group as primary or supplementary group. All of it comes from the
// socket, as the kernel recorded it at connect(2): uid, gid and pid from SO_PEERCRED, the
// supplementary groups from SO_PEERGROUPS. Nothing is looked up by pid afterwards, when the
// client may have exited and its pid may be another process's.

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"

namespace nb::service {

struct PeerCredentials {
  pid_t pid = 0;
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;  // supplementary
};

Result<PeerCredentials> peer_credentials(int socket_fd);

// The supplementary groups the peer had when it connected.
Result<std::vector<gid_t>> peer_groups(int socket_fd);

std::optional<gid_t> lookup_group(const std::string& name);

bool may_mutate(const PeerCredentials& peer, std::optional<gid_t> admin_group);

}  // namespace nb::service
