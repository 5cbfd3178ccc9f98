#pragma once
// Prometheus's own tools against the daemon's exposition: `promtool check metrics` (the
// `prometheus` package) and node_exporter's textfile collector (`prometheus-node-exporter`),
// fetched over plain HTTP. scripts/setup.sh --tests installs both; tests skip without them.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "tests/daemon/service/child_process.hpp"

namespace nb::testing {

// The program's path on $PATH, if it is installed.
inline std::optional<std::filesystem::path> find_program(std::string_view name) {
  const char* path = std::getenv("PATH");
  std::string_view directories = path != nullptr ? path : "/usr/bin:/bin";
  while (!directories.empty()) {
    auto colon = directories.find(':');
    std::filesystem::path candidate =
        std::filesystem::path(directories.substr(0, colon)) / std::string(name);
    if (::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    directories = colon == std::string_view::npos ? "" : directories.substr(colon + 1);
  }
  return std::nullopt;
}

struct PromtoolResult {
  int exit_code = -1;
  std::string problems;  // what promtool printed; empty when the text is clean
};

// `promtool check metrics < file`: lint problems (abbreviated units, counters without _total,
// ...) and parse errors.
inline PromtoolResult promtool_check(const std::filesystem::path& promtool,
                                     const std::filesystem::path& exposition,
                                     const std::filesystem::path& output_dir) {
  ChildProcess check({"/bin/sh", "-c", "exec \"$0\" check metrics < \"$1\"", promtool.string(),
                      exposition.string()},
                     output_dir);
  int code = check.exit_code(std::chrono::seconds(20));
  return {code, check.out() + check.err()};
}

// A free TCP port on 127.0.0.1 at the time of asking.
inline int free_local_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  int port = -1;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), length) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

// The body of GET `path` from 127.0.0.1:`port` (HTTP/1.0, so the server closes when done), or
// nullopt when nothing answers or the reply does not finish in time.
inline std::optional<std::string> http_get(int port, const std::string& path,
                                           std::chrono::milliseconds timeout) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  std::string request = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  std::string reply;
  bool complete = ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
                  static_cast<ssize_t>(request.size());
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (complete) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd readable{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&readable, 1, static_cast<int>(left.count())) <= 0) {
      complete = false;
      break;
    }
    char buffer[65536];
    ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) {
      complete = got == 0;
      break;
    }
    reply.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  auto body = reply.find("\r\n\r\n");
  if (!complete || reply.rfind("HTTP/1.", 0) != 0 || body == std::string::npos) {
    return std::nullopt;
  }
  return reply.substr(body + 4);
}

// prometheus-node-exporter with only the textfile collector, on a free local port.
class TextfileExporter {
 public:
  TextfileExporter(const std::filesystem::path& program, const std::filesystem::path& directory,
                   const std::filesystem::path& output_dir)
      : port_(free_local_port()),
        process_({program.string(), "--collector.disable-defaults", "--collector.textfile",
                  "--collector.textfile.directory=" + directory.string(),
                  "--web.listen-address=127.0.0.1:" + std::to_string(port_)},
                 output_dir) {}
  ~TextfileExporter() {
    process_.signal(SIGTERM);
    process_.wait(std::chrono::seconds(5));
  }

  // /metrics once the exporter answers (it starts listening a moment after it starts).
  std::optional<std::string> scrape(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline && !process_.wait({}).has_value()) {
      if (auto body = http_get(port_, "/metrics", std::chrono::seconds(5))) {
        return body;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return std::nullopt;
  }
  std::string log() const { return process_.err(); }
  int port() const { return port_; }

 private:
  int port_;
  ChildProcess process_;
};

}  // namespace nb::testing
