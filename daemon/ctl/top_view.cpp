#include "daemon/ctl/top_view.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <iostream>

#include "daemon/ctl/admin_client.hpp"
#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/connection.hpp"
#include "daemon/ctl/conversation.hpp"
#include "daemon/ctl/exit_codes.hpp"
#include "daemon/ctl/host_tables.hpp"
#include "daemon/ctl/round_view.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;

volatile std::sig_atomic_t interrupted = 0;

void on_signal(int) {
  interrupted = 1;
}

// Raw-ish input so that a single q arrives without Enter; Ctrl-C stays a signal.
class TerminalMode {
 public:
  TerminalMode() {
    if (::isatty(STDIN_FILENO) && ::tcgetattr(STDIN_FILENO, &saved_) == 0) {
      termios raw = saved_;
      raw.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO));
      raw.c_cc[VMIN] = 0;
      raw.c_cc[VTIME] = 0;
      active_ = ::tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
    }
    std::cout << "\x1b[?25l" << std::flush;  // hide the cursor
  }
  ~TerminalMode() {
    std::cout << "\x1b[?25h" << std::flush;
    if (active_) {
      ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_);
    }
  }
  TerminalMode(const TerminalMode&) = delete;
  TerminalMode& operator=(const TerminalMode&) = delete;

 private:
  termios saved_{};
  bool active_ = false;
};

// Waits up to `timeout` for a key; true when it asks to quit.
bool quit_requested(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!interrupted) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return false;
    }
    pollfd input{STDIN_FILENO, POLLIN, 0};
    int ready = ::poll(&input, 1, static_cast<int>(std::min<long long>(left.count(), 200)));
    if (ready > 0 && (input.revents & (POLLIN | POLLHUP))) {
      char key = 0;
      ssize_t got = ::read(STDIN_FILENO, &key, 1);
      if (got == 0 && (input.revents & POLLHUP)) {
        return true;  // the terminal went away
      }
      if (got == 1 && (key == 'q' || key == 'Q' || key == 3)) {
        return true;
      }
    }
  }
  return true;
}

// "force"; "unknown (no_metrics)" while the decision could not measure pressure.
std::string pressure_of(const json& plan) {
  const json& decision = field(plan, "decision");
  std::string pressure = cell_pressure(decision);
  if (pressure == "unknown" && field(decision, "status").is_string()) {
    pressure += " (" + field(decision, "status").get<std::string>() + ")";
  }
  return pressure;
}

}  // namespace

std::string render_top(const json& status, const json& topology, const json& containers,
                       const json& plan) {
  std::string out =
      fmt::format("numabalancerd pid {} - {}{} - pressure {} - {} rounds   (q quits)\n\n",
                  cell_text(field(status, "pid")), cell_text(field(status, "state")),
                  field(status, "dry_run") == true ? " (dry run)" : "", pressure_of(plan),
                  cell_text(field(status, "rounds")));
  const json& nodes = field(topology, "nodes");
  out += format_node_table(nodes, NodeColumns::summary) + "\n";
  std::vector<int> node_ids;
  for (const auto& node : nodes.is_array() ? nodes : json::array()) {
    if (field(node, "id").is_number_integer()) {
      node_ids.push_back(field(node, "id").get<int>());
    }
  }
  out += format_container_table(field(containers, "containers"), node_ids) + "\n";
  out += "job:        " + job_line(field(status, "job")) + "\n";
  out += "last round: " + round_line(field(status, "last_round")) + "\n";
  return out;
}

int run_top(const TopOptions& options) {
  int exit_code = kUsage;
  auto client = connect_to_daemon(options.socket.string(), options.timeout, exit_code);
  if (!client) {
    return exit_code;
  }
  struct sigaction action {};
  action.sa_handler = on_signal;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  TerminalMode terminal;
  while (true) {
    // Each reply within --timeout: a daemon that stops answering ends the view.
    auto status = client->call("status");
    if (interrupted) {
      std::cout << "\n";
      return kOk;
    }
    if (!status || !status->ok()) {
      std::cout << "\x1b[H\x1b[2J" << std::flush;
      return status ? report_error(*status)
                    : report_failure(status.error(), "waiting for the reply to status",
                                     options.timeout, kFailed);
    }
    auto topology = client->call("topology");
    auto containers = client->call("containers", {{"limit", options.containers}});
    auto plan = client->call("plan");
    auto result_or_empty = [](const Result<wire::Response>& response) {
      return response && response->ok() ? response->result : json::object();
    };
    std::cout << "\x1b[H\x1b[2J"
              << render_top(status->result, result_or_empty(topology), result_or_empty(containers),
                            result_or_empty(plan))
              << std::flush;
    auto interval = options.interval.value_or(
        std::chrono::milliseconds(status->result.value("interval_ms", 10000)));
    if (quit_requested(interval)) {
      std::cout << "\n";
      return kOk;
    }
  }
}

}  // namespace nb::ctl
