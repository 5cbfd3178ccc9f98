#pragma once
// numabalancerctl's side of the admin socket: one connection, requests with increasing ids,
// and the lines the daemon sends back (responses, and events after `watch`).
//
// No wait is open-ended: connecting, sending and every read end at a deadline, and a wait that
// reaches it fails with ETIMEDOUT, so that a daemon which accepts and never answers cannot hold
// numabalancerctl past its --timeout.

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>

#include "base/file_descriptor.hpp"
#include "base/result.hpp"
#include "daemon/wire/protocol.hpp"

namespace nb::ctl {

using Deadline = std::chrono::steady_clock::time_point;

// `timeout` from now.
Deadline deadline_after(std::chrono::milliseconds timeout);

class AdminClient {
 public:
  // Waits at most `timeout` for the daemon to take the connection; each call() waits at most
  // as long for its reply.
  static Result<AdminClient> connect(const std::filesystem::path& socket_path,
                                     std::chrono::milliseconds timeout);
  AdminClient(AdminClient&& other) noexcept = default;
  AdminClient& operator=(AdminClient&&) = delete;
  AdminClient(const AdminClient&) = delete;

  // Sends the request and returns its response; events arriving meanwhile are skipped.
  Result<wire::Response> call(const std::string& cmd,
                              nlohmann::json args = nlohmann::json::object());
  Result<wire::Response> call(const std::string& cmd, nlohmann::json args, Deadline deadline);
  // The id of the request sent.
  Result<long long> send(const std::string& cmd, nlohmann::json args, Deadline deadline);
  // The next line from the daemon; ETIMEDOUT when none came by `deadline`.
  Result<wire::ServerLine> next(Deadline deadline);

  std::chrono::milliseconds timeout() const { return timeout_; }

 private:
  AdminClient(FileDescriptor fd, std::chrono::milliseconds timeout)
      : fd_(std::move(fd)), timeout_(timeout) {}
  Result<std::string> read_line(Deadline deadline);
  // Until the socket is ready for `events` or the deadline passes (ETIMEDOUT).
  Status wait_until_ready(short events, Deadline deadline, const char* doing);

  FileDescriptor fd_;
  std::chrono::milliseconds timeout_;
  long long next_id_ = 1;
  std::string buffer_;
};

}  // namespace nb::ctl
