#pragma once
// numabalancerctl's side of the admin socket: one connection, requests with increasing ids,
// and the lines the daemon sends back (responses, and events after `watch`).

#include <chrono>
#include <filesystem>
#include <string>

#include "base/result.hpp"
#include "daemon/wire/protocol.hpp"

namespace nb::ctl {

class AdminClient {
 public:
  static Result<AdminClient> connect(const std::filesystem::path& socket_path,
                                     std::chrono::milliseconds timeout);
  AdminClient(AdminClient&& other) noexcept;
  AdminClient& operator=(AdminClient&&) = delete;
  AdminClient(const AdminClient&) = delete;
  ~AdminClient();

  // Sends the request and returns its response; events arriving meanwhile are skipped.
  Result<wire::Response> call(const std::string& cmd,
                              nlohmann::json args = nlohmann::json::object());
  Status send(const std::string& cmd, nlohmann::json args = nlohmann::json::object());
  // The next line from the daemon; ETIMEDOUT after `timeout` without one.
  Result<wire::ServerLine> next(std::chrono::milliseconds timeout);

 private:
  AdminClient(int fd, std::chrono::milliseconds timeout) : fd_(fd), timeout_(timeout) {}
  Result<std::string> read_line(std::chrono::milliseconds timeout);

  int fd_ = -1;
  std::chrono::milliseconds timeout_;
  long long next_id_ = 1;
  long long last_sent_id_ = 0;
  std::string buffer_;
};

}  // namespace nb::ctl
