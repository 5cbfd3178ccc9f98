#pragma once
// A bare admin-socket client for tests: raw bytes out, lines back, with timeouts, so that tests
// can send what numabalancerctl never would (half lines, garbage, oversized lines).

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <optional>
#include <string>

namespace nb::testing {

class SocketClient {
 public:
  explicit SocketClient(const std::string& path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  // Takes a socket connected elsewhere (see connect_as.hpp); -1 is not connected.
  struct Adopt {
    int fd;
  };
  explicit SocketClient(Adopt adopted) : fd_(adopted.fd) {}
  ~SocketClient() {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  SocketClient(const SocketClient&) = delete;
  SocketClient& operator=(const SocketClient&) = delete;

  bool connected() const { return fd_ >= 0; }
  // For tests that wait on many connections at once with poll(2).
  int fd() const { return fd_; }

  bool send_raw(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent <= 0) {
        return false;
      }
      bytes.remove_prefix(static_cast<std::size_t>(sent));
    }
    return true;
  }

  // nullopt on timeout or when the daemon closed the connection.
  std::optional<std::string> read_line(
      std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
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
        return std::nullopt;
      }
      pollfd waiting{fd_, POLLIN, 0};
      if (::poll(&waiting, 1, static_cast<int>(left.count())) <= 0) {
        continue;
      }
      char chunk[65536];
      ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
      if (got <= 0) {
        return std::nullopt;
      }
      buffer_.append(chunk, static_cast<std::size_t>(got));
    }
  }

  // True when the daemon closed the connection within the timeout.
  bool closed_by_peer(std::chrono::milliseconds timeout) {
    pollfd waiting{fd_, POLLIN, 0};
    if (::poll(&waiting, 1, static_cast<int>(timeout.count())) <= 0) {
      return false;
    }
    char byte;
    return ::recv(fd_, &byte, 1, MSG_PEEK) == 0;
  }

  nlohmann::json call(const std::string& cmd, nlohmann::json args = nlohmann::json::object()) {
    nlohmann::json request{{"id", ++id_}, {"cmd", cmd}, {"args", std::move(args)}};
    send_raw(request.dump() + "\n");
    // Skip event lines (after watch) until the response to this request.
    while (auto line = read_line()) {
      auto reply = nlohmann::json::parse(*line, nullptr, false);
      if (reply.is_object() && reply.contains("ok")) {
        return reply;
      }
    }
    return nullptr;
  }

 private:
  int fd_ = -1;
  int id_ = 0;
  std::string buffer_;
};

// A reply's error code ("busy", "forbidden", …), or "" for a reply that is not an error.
inline std::string error_code(const nlohmann::json& reply) {
  return reply.is_object() && reply.contains("error") && reply["error"].is_object()
             ? reply["error"].value("code", "")
             : "";
}

}  // namespace nb::testing
