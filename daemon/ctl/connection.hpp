#pragma once
// Opening a conversation with the daemon and saying why one failed, the same way for every
// command: a connection that cannot be made names the socket and how to choose another, and a
// daemon that does not answer in time is a timeout (exit 3) that names --timeout.

#include <chrono>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "daemon/ctl/admin_client.hpp"

namespace nb::ctl {

// Connects, waiting at most `timeout`; on failure prints why and leaves the exit code in
// `exit_code` (kUsage, or kTimedOut when the daemon never took the connection).
std::optional<AdminClient> connect_to_daemon(const std::string& socket,
                                             std::chrono::milliseconds timeout, int& exit_code);

// Prints a failed exchange ("numabalancerctl: waiting for round 12: ...") and returns its exit
// code: kTimedOut for a wait that reached its deadline, `otherwise` for anything else.
int report_failure(const Error& error, const std::string& waiting_for,
                   std::chrono::milliseconds timeout, int otherwise);

// "2 s", "0.5 s": how long --timeout lets a wait last.
std::string timeout_text(std::chrono::milliseconds timeout);

}  // namespace nb::ctl
