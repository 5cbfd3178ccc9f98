#include "daemon/service/admin/peer_credentials.hpp"

#include <grp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace nb::service {

Result<PeerCredentials> peer_credentials(int socket_fd, const std::filesystem::path& proc_root) {
  ucred credentials{};
  socklen_t length = sizeof credentials;
  if (::getsockopt(socket_fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) {
    return make_error(errno, "getsockopt SO_PEERCRED");
  }
  PeerCredentials peer{credentials.pid, credentials.uid, credentials.gid, {}};
  // A peer that exited meanwhile keeps its uid and primary gid; its supplementary groups are
  // simply not known.
  if (auto groups = read_supplementary_groups(proc_root, credentials.pid)) {
    peer.groups = std::move(groups.value());
  }
  return peer;
}

Result<std::vector<gid_t>> read_supplementary_groups(const std::filesystem::path& proc_root,
                                                     pid_t pid) {
  auto path = proc_root / std::to_string(pid) / "status";
  std::ifstream in(path);
  if (!in) {
    return make_error(ENOENT, "read " + path.string());
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Groups:", 0) != 0) {
      continue;
    }
    std::istringstream fields(line.substr(7));
    std::vector<gid_t> groups;
    long long gid = 0;
    while (fields >> gid) {
      groups.push_back(static_cast<gid_t>(gid));
    }
    return groups;
  }
  return make_error(0, "no Groups: line in " + path.string());
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
