#include "daemon/ctl/admin_client.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <utility>

namespace nb::ctl {

Result<AdminClient> AdminClient::connect(const std::filesystem::path& socket_path,
                                         std::chrono::milliseconds timeout) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string path = socket_path.string();
  if (path.size() >= sizeof address.sun_path) {
    return make_error(ENAMETOOLONG, path);
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return make_error(errno, "socket");
  }
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    int code = errno;
    ::close(fd);
    return make_error(code, path);
  }
  return AdminClient(fd, timeout);
}

AdminClient::AdminClient(AdminClient&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      timeout_(other.timeout_),
      next_id_(other.next_id_),
      last_sent_id_(other.last_sent_id_),
      buffer_(std::move(other.buffer_)) {}

AdminClient::~AdminClient() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

Status AdminClient::send(const std::string& cmd, nlohmann::json args) {
  last_sent_id_ = next_id_++;
  std::string line = wire::to_line(wire::Request{last_sent_id_, cmd, std::move(args)});
  std::string_view rest = line;
  while (!rest.empty()) {
    ssize_t sent = ::send(fd_, rest.data(), rest.size(), MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) {
        continue;
      }
      return make_error(errno, "send to numabalancerd");
    }
    rest.remove_prefix(static_cast<std::size_t>(sent));
  }
  return Ok{};
}

Result<wire::Response> AdminClient::call(const std::string& cmd, nlohmann::json args) {
  if (auto sent = send(cmd, std::move(args)); !sent) {
    return sent.error();
  }
  while (true) {
    auto line = next(timeout_);
    if (!line) {
      return line.error();
    }
    if (auto* response = std::get_if<wire::Response>(&line.value())) {
      // A reply without our id is the daemon refusing the connection (too many clients).
      if (response->id == last_sent_id_ || response->id.is_null()) {
        return std::move(*response);
      }
    }
  }
}

Result<wire::ServerLine> AdminClient::next(std::chrono::milliseconds timeout) {
  auto line = read_line(timeout);
  if (!line) {
    return line.error();
  }
  return wire::parse_server_line(line.value());
}

Result<std::string> AdminClient::read_line(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (auto newline = buffer_.find('\n'); newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return make_error(ETIMEDOUT, "waiting for numabalancerd");
    }
    pollfd waiting{fd_, POLLIN, 0};
    int ready = ::poll(&waiting, 1, static_cast<int>(left.count()));
    if (ready < 0) {
      if (errno == EINTR) {
        return make_error(EINTR, "interrupted");
      }
      return make_error(errno, "poll");
    }
    if (ready == 0) {
      continue;
    }
    char chunk[65536];
    ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      return make_error(errno, "read from numabalancerd");
    }
    if (got == 0) {
      return make_error(ECONNRESET, "numabalancerd closed the connection");
    }
    buffer_.append(chunk, static_cast<std::size_t>(got));
  }
}

}  // namespace nb::ctl
