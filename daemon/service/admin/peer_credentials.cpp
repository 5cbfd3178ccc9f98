#include "daemon/service/admin/peer_credentials.hpp"

#include <grp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59  // Linux 4.13; older libc headers lack it
#endif

namespace nb::service {

namespace {

// NGROUPS_MAX on Linux: a bound for the ERANGE retry.
constexpr std::size_t kMaxGroups = 65536;

}  // namespace

Result<PeerCredentials> peer_credentials(int socket_fd) {
  ucred credentials{};
  socklen_t length = sizeof credentials;
  if (::getsockopt(socket_fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) {
    return make_error(errno, "getsockopt SO_PEERCRED");
  }
  auto groups = peer_groups(socket_fd);
  if (!groups) {
    return groups.error();
  }
  return PeerCredentials{credentials.pid, credentials.uid, credentials.gid,
                         std::move(groups.value())};
}

Result<std::vector<gid_t>> peer_groups(int socket_fd) {
  std::vector<gid_t> groups(32);
  while (true) {
    auto length = static_cast<socklen_t>(groups.size() * sizeof(gid_t));
    if (::getsockopt(socket_fd, SOL_SOCKET, SO_PEERGROUPS, groups.data(), &length) == 0) {
      groups.resize(length / sizeof(gid_t));
      return groups;
    }
    if (errno != ERANGE || groups.size() >= kMaxGroups) {
      return make_error(errno, "getsockopt SO_PEERGROUPS");
    }
    // On ERANGE the kernel says how much it needs.
    std::size_t needed = std::max<std::size_t>(length / sizeof(gid_t), groups.size() * 2);
    groups.resize(std::min(needed, kMaxGroups));
  }
}

std::optional<gid_t> lookup_group(const std::string& name) {
  if (name.empty()) {
    return std::nullopt;
  }
  long size = ::sysconf(_SC_GETGR_R_SIZE_MAX);
  std::vector<char> buffer(size > 0 ? static_cast<size_t>(size) : 16384);
  group entry{};
  group* found = nullptr;
  while (::getgrnam_r(name.c_str(), &entry, buffer.data(), buffer.size(), &found) == ERANGE) {
    buffer.resize(buffer.size() * 2);
  }
  if (found == nullptr) {
    return std::nullopt;
  }
  return found->gr_gid;
}

bool may_mutate(const PeerCredentials& peer, std::optional<gid_t> admin_group) {
  if (peer.uid == 0) {
    return true;
  }
  if (!admin_group) {
    return false;
  }
  return peer.gid == *admin_group ||
         std::find(peer.groups.begin(), peer.groups.end(), *admin_group) != peer.groups.end();
}

}  // namespace nb::service
