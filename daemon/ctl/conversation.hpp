#pragma once
// One command's conversation with the daemon: the connection and the deadline, --timeout after
// the command began, that every wait for an answer ends by.

#include <chrono>
#include <optional>
#include <string>

#include "daemon/ctl/admin_client.hpp"
#include "daemon/ctl/requests.hpp"

namespace nb::ctl {

struct Conversation {
  AdminClient client;
  std::chrono::milliseconds timeout;
  Deadline deadline;

  Result<wire::Response> call(const std::string& cmd, const nlohmann::json& args) {
    return client.call(cmd, args, deadline);
  }
  // Subscribes to events first, so that none of those the next request causes is missed; the
  // exit code when that fails.
  std::optional<int> subscribe();
  // Sends a request whose outcome the events will tell: its result, or, when the request was not
  // accepted, nothing (the failure printed and `exit_code` set).
  std::optional<nlohmann::json> start(const std::string& cmd, const nlohmann::json& args,
                                      int& exit_code);
  // Prints the failure; kTimedOut for a timeout, else kUsage (the daemon could not be talked to).
  int failed(const Error& error, const std::string& waiting_for) const;
};

std::chrono::milliseconds timeout_of(const Options& options);

// Connects; on failure prints why and sets `exit_code`.
std::optional<Conversation> open_conversation(const Options& options, int& exit_code);

// Connects and subscribes to events; on failure prints why and sets `exit_code`.
std::optional<Conversation> open_subscribed(const Options& options, int& exit_code);

// Prints the daemon's error reply; kFailed.
int report_error(const wire::Response& response);

}  // namespace nb::ctl
