#pragma once
// A fake numabalancerd for the timeout tests: it takes one client and answers each request as a
// script says (possibly not at all), and may send lines of its own later. One that never accepts
// fills its backlog instead, so that a connect cannot even be queued.

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "daemon/wire/protocol.hpp"

namespace nb::testing {

class ScriptedDaemon {
 public:
  // The lines to send back for a request; none leaves it unanswered.
  using Script = std::function<std::vector<std::string>(const wire::Request&)>;
  // A line sent on the daemon's own, this long after the client connected.
  struct Later {
    std::chrono::milliseconds after;
    std::string line;
  };

  ScriptedDaemon(const std::filesystem::path& socket, Script script, std::vector<Later> later = {})
      : script_(std::move(script)), later_(std::move(later)) {
    listen_at(socket, 8);
    thread_ = std::thread([this] { serve(); });
  }

  // Listens with a full backlog and never accepts.
  static ScriptedDaemon never_accepting(const std::filesystem::path& socket) {
    return ScriptedDaemon(socket);
  }

  ScriptedDaemon(const ScriptedDaemon&) = delete;
  ScriptedDaemon& operator=(const ScriptedDaemon&) = delete;

  ~ScriptedDaemon() {
    stop_ = true;
    if (thread_.joinable()) {
      thread_.join();
    }
    for (int fd : {listener_, queued_}) {
      if (fd >= 0) {
        ::close(fd);
      }
    }
  }

  // The commands received, in order; read once the client is done.
  std::vector<std::string> commands() const { return commands_; }

 private:
  explicit ScriptedDaemon(const std::filesystem::path& socket) {
    listen_at(socket, 0);
    // A backlog of 0 queues one connection: this one fills it.
    queued_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ::connect(queued_, reinterpret_cast<const sockaddr*>(&address_), sizeof address_);
  }

  void listen_at(const std::filesystem::path& socket, int backlog) {
    std::filesystem::remove(socket);
    address_.sun_family = AF_UNIX;
    std::strncpy(address_.sun_path, socket.c_str(), sizeof address_.sun_path - 1);
    listener_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ::bind(listener_, reinterpret_cast<const sockaddr*>(&address_), sizeof address_);
    ::listen(listener_, backlog);
  }

  void serve() {
    int client = -1;
    while (!stop_ && client < 0) {
      pollfd waiting{listener_, POLLIN, 0};
      if (::poll(&waiting, 1, 20) > 0) {
        client = ::accept(listener_, nullptr, nullptr);
      }
    }
    const auto connected = std::chrono::steady_clock::now();
    std::string buffer;
    std::size_t next_later = 0;
    while (!stop_ && client >= 0) {
      pollfd waiting{client, POLLIN, 0};
      if (::poll(&waiting, 1, 20) > 0) {
        char chunk[4096];
        ssize_t got = ::read(client, chunk, sizeof chunk);
        if (got <= 0) {
          break;
        }
        buffer.append(chunk, static_cast<std::size_t>(got));
      }
      for (auto end = buffer.find('\n'); end != std::string::npos; end = buffer.find('\n')) {
        auto parsed = wire::parse_request(std::string_view(buffer).substr(0, end));
        buffer.erase(0, end + 1);
        if (auto* request = std::get_if<wire::Request>(&parsed)) {
          commands_.push_back(request->cmd);
          for (const auto& line : script_(*request)) {
            write_all(client, line);
          }
        }
      }
      while (next_later < later_.size() &&
             std::chrono::steady_clock::now() - connected >= later_[next_later].after) {
        write_all(client, later_[next_later++].line);
      }
    }
    if (client >= 0) {
      ::close(client);
    }
  }

  static void write_all(int fd, const std::string& line) {
    std::string_view rest = line;
    while (!rest.empty()) {
      ssize_t sent = ::send(fd, rest.data(), rest.size(), MSG_NOSIGNAL);
      if (sent <= 0) {
        return;
      }
      rest.remove_prefix(static_cast<std::size_t>(sent));
    }
  }

  Script script_;
  std::vector<Later> later_;
  sockaddr_un address_{};
  int listener_ = -1;
  int queued_ = -1;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::vector<std::string> commands_;
};

// The reply to `request` as a line.
inline std::string reply(const wire::Request& request, nlohmann::json result) {
  return wire::to_line(wire::success(request.id, std::move(result)));
}

inline std::string event_line(std::string kind, nlohmann::json data) {
  return wire::to_line(wire::Event{std::move(kind), "2026-12-02T10:00:00Z", std::move(data)});
}

}  // namespace nb::testing
