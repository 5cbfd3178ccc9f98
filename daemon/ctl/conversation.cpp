#include "daemon/ctl/conversation.hpp"

#include <iostream>

#include "daemon/ctl/connection.hpp"

namespace nb::ctl {

std::chrono::milliseconds timeout_of(const Options& options) {
  return std::chrono::milliseconds(static_cast<long long>(options.timeout_s * 1000));
}

std::optional<Conversation> open_conversation(const Options& options, int& exit_code) {
  const auto timeout = timeout_of(options);
  const Deadline deadline = deadline_after(timeout);
  auto client = connect_to_daemon(options.socket, timeout, exit_code);
  if (!client) {
    return std::nullopt;
  }
  return Conversation{std::move(*client), timeout, deadline};
}

std::optional<Conversation> open_subscribed(const Options& options, int& exit_code) {
  auto talk = open_conversation(options, exit_code);
  if (!talk) {
    return std::nullopt;
  }
  if (auto failed = talk->subscribe()) {
    exit_code = *failed;
    return std::nullopt;
  }
  return talk;
}

int report_error(const wire::Response& response) {
  std::cerr << "numabalancerctl: " << wire::to_string(response.error->code) << ": "
            << response.error->message << "\n";
  // A request the daemon found malformed is bad usage, as numabalancerd's own commands say of the
  // same arguments (exit 2); any other error is the command failing.
  return response.error->code == wire::ErrorCode::bad_request ? kUsage : kFailed;
}

std::optional<int> Conversation::subscribe() {
  auto watching = call("watch", nlohmann::json::object());
  if (!watching) {
    return failed(watching.error(), "waiting for the reply to watch");
  }
  if (!watching->ok()) {
    return report_error(*watching);
  }
  return std::nullopt;
}

std::optional<nlohmann::json> Conversation::start(const std::string& cmd,
                                                  const nlohmann::json& args, int& exit_code) {
  auto started = call(cmd, args);
  if (!started) {
    exit_code = failed(started.error(), "waiting for the reply to " + cmd);
    return std::nullopt;
  }
  if (!started->ok()) {
    exit_code = report_error(*started);
    return std::nullopt;
  }
  return std::move(started->result);
}

int Conversation::failed(const Error& error, const std::string& waiting_for) const {
  return report_failure(error, waiting_for, timeout, kUsage);
}

}  // namespace nb::ctl
