#include "daemon/ctl/admin_client.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <utility>

namespace nb::ctl {

namespace {

using namespace std::chrono_literals;

// What is left of the wait, rounded up so that poll() never returns a moment early.
int poll_timeout(Deadline deadline) {
  auto left =
      std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<long long>(left.count(), 0, 60'000));
}

// A listener whose backlog is full answers a non-blocking connect with EAGAIN and offers nothing
// to poll for: try again shortly, until the deadline.
Status connect_by(int fd, const sockaddr_un& address, Deadline deadline, const std::string& path) {
  while (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    if (errno == EINTR) {
      continue;
    }
    if (errno == EINPROGRESS) {
      pollfd writable{fd, POLLOUT, 0};
      if (::poll(&writable, 1, poll_timeout(deadline)) == 0) {
        return make_error(ETIMEDOUT, "connect to " + path);
      }
      int code = 0;
      socklen_t size = sizeof code;
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size);
      return code == 0 ? Status(Ok{}) : Status(make_error(code, path));
    }
    if (errno != EAGAIN) {
      return make_error(errno, path);
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return make_error(ETIMEDOUT, "connect to " + path);
    }
    std::this_thread::sleep_for(10ms);
  }
  return Ok{};
}

}  // namespace

Deadline deadline_after(std::chrono::milliseconds timeout) {
  return std::chrono::steady_clock::now() + timeout;
}

Result<AdminClient> AdminClient::connect(const std::filesystem::path& socket_path,
                                         std::chrono::milliseconds timeout) {
  auto deadline = deadline_after(timeout);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string path = socket_path.string();
  if (path.size() >= sizeof address.sun_path) {
    return make_error(ENAMETOOLONG, path);
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  FileDescriptor fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!fd.valid()) {
    return make_error(errno, "socket");
  }
  if (auto connected = connect_by(fd.get(), address, deadline, path); !connected) {
    return connected.error();
  }
  return AdminClient(std::move(fd), timeout);
}

Status AdminClient::wait_until_ready(short events, Deadline deadline, const char* doing) {
  while (true) {
    pollfd waiting{fd_.get(), events, 0};
    int ready = ::poll(&waiting, 1, poll_timeout(deadline));
    if (ready > 0) {
      return Ok{};
    }
    if (ready < 0) {
      // A signal ends the wait: `top` quits on Ctrl-C even while the daemon is slow to answer.
      return make_error(errno, errno == EINTR ? "interrupted" : "poll");
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return make_error(ETIMEDOUT, doing);
    }
  }
}

Result<long long> AdminClient::send(const std::string& cmd, nlohmann::json args,
                                    Deadline deadline) {
  const long long id = next_id_++;
  std::string line = wire::to_line(wire::Request{id, cmd, std::move(args)});
  std::string_view rest = line;
  while (!rest.empty()) {
    if (auto ready = wait_until_ready(POLLOUT, deadline, "send to numabalancerd"); !ready) {
      return ready.error();
    }
    ssize_t sent = ::send(fd_.get(), rest.data(), rest.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent < 0) {
      if (errno == EINTR || errno == EAGAIN) {
        continue;
      }
      return make_error(errno, "send to numabalancerd");
    }
    rest.remove_prefix(static_cast<std::size_t>(sent));
  }
  return id;
}

Result<wire::Response> AdminClient::call(const std::string& cmd, nlohmann::json args) {
  return call(cmd, std::move(args), deadline_after(timeout_));
}

Result<wire::Response> AdminClient::call(const std::string& cmd, nlohmann::json args,
                                         Deadline deadline) {
  auto id = send(cmd, std::move(args), deadline);
  if (!id) {
    return id.error();
  }
  while (true) {
    auto line = next(deadline);
    if (!line) {
      return line.error();
    }
    if (auto* response = std::get_if<wire::Response>(&line.value())) {
      // A reply without our id is the daemon refusing the connection (too many clients).
      if (response->id == id.value() || response->id.is_null()) {
        return std::move(*response);
      }
    }
  }
}

Result<wire::ServerLine> AdminClient::next(Deadline deadline) {
  auto line = read_line(deadline);
  if (!line) {
    return line.error();
  }
  return wire::parse_server_line(line.value());
}

Result<std::string> AdminClient::read_line(Deadline deadline) {
  while (true) {
    if (auto newline = buffer_.find('\n'); newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return line;
    }
    if (auto ready = wait_until_ready(POLLIN, deadline, "wait for numabalancerd"); !ready) {
      return ready.error();
    }
    char chunk[65536];
    ssize_t got = ::recv(fd_.get(), chunk, sizeof chunk, MSG_DONTWAIT);
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) {
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
