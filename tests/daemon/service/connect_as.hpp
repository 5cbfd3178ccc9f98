#pragma once
// A connection made by another user: a forked child takes the uid, gid and supplementary groups,
// connects, hands the socket back over SCM_RIGHTS and exits. The kernel keeps the credentials of
// the connect(2), so the parent holds a connection from a peer that no longer exists, as happens
// when a client exits and its pid is reused. Root only (the child must be able to setuid).

#include <grp.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

namespace nb::testing {

namespace detail {

// Only async-signal-safe calls: the child of a threaded process.
[[noreturn]] inline void connect_and_hand_back(const std::string& path, uid_t uid, gid_t gid,
                                               const std::vector<gid_t>& groups, int channel) {
  if (::setgroups(groups.size(), groups.data()) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0) {
    ::_exit(2);
  }
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::_exit(3);
  }
  char byte = 0;
  iovec data{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr message{};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  cmsghdr* header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(header), &fd, sizeof fd);
  ::_exit(::sendmsg(channel, &message, 0) == 1 ? 0 : 4);
}

inline int receive_fd(int channel) {
  char byte = 0;
  iovec data{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr message{};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  if (::recvmsg(channel, &message, MSG_CMSG_CLOEXEC) != 1) {
    return -1;
  }
  cmsghdr* header = CMSG_FIRSTHDR(&message);
  if (header == nullptr || header->cmsg_type != SCM_RIGHTS) {
    return -1;
  }
  int fd = -1;
  std::memcpy(&fd, CMSG_DATA(header), sizeof fd);
  return fd;
}

}  // namespace detail

// The connected socket, or -1. The child has exited and been reaped when this returns.
inline int connect_as(const std::string& path, uid_t uid, gid_t gid,
                      const std::vector<gid_t>& groups = {}) {
  int channel[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, channel) != 0) {
    return -1;
  }
  pid_t child = ::fork();
  if (child == 0) {
    detail::connect_and_hand_back(path, uid, gid, groups, channel[1]);
  }
  ::close(channel[1]);
  int fd = child > 0 ? detail::receive_fd(channel[0]) : -1;
  ::close(channel[0]);
  int status = 0;
  if (child > 0) {
    ::waitpid(child, &status, 0);
  }
  return fd;
}

}  // namespace nb::testing
