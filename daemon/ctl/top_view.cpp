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
#include "daemon/ctl/exit_codes.hpp"

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

std::string level_of(const json& plan) {
  const json& decision = plan.value("decision", json::object());
  return decision.value("level", std::string("-"));
}

}  // namespace

std::string render_top(const json& status, const json& topology, const json& containers,
                       const json& plan) {
  std::string out =
      fmt::format("numabalancerd pid {} - {}{} - pressure {} - {} rounds   (q quits)\n\n",
                  status.value("pid", 0), status.value("state", std::string("?")),
                  status.value("dry_run", false) ? " (dry-run)" : "", level_of(plan),
                  status.value("rounds", 0));
  std::vector<std::vector<std::string>> rows{
      {"NODE", "CPUS", "LATENCY", "BANDWIDTH", "FREE", "TOTAL"}};
  std::vector<std::string> node_ids;
  for (const auto& node : topology.value("nodes", json::array())) {
    const json& latency = node.value("read_latency_ns", json());
    const json& bandwidth = node.value("bandwidth_gbps", json());
    auto bytes = [](const json& v) { return v.is_number() ? format_bytes(v.get<double>()) : "-"; };
    node_ids.push_back(std::to_string(node.value("id", 0)));
    rows.push_back(
        {node_ids.back(), node.value("cpus", std::string("-")),
         latency.is_number() ? fmt::format("{:.1f} ns", latency.get<double>()) : "-",
         bandwidth.is_number() ? fmt::format("{:.2f} GB/s", bandwidth.get<double>()) : "-",
         bytes(node.value("free_bytes", json())), bytes(node.value("total_bytes", json()))});
  }
  out += format_table(rows) + "\n";

  std::vector<std::string> header{"CONTAINER", "ANON"};
  for (const auto& id : node_ids) {
    header.push_back("N" + id);
  }
  std::vector<std::vector<std::string>> top{header};
  for (const auto& container : containers.value("containers", json::array())) {
    std::vector<std::string> row{container.value("id", std::string()),
                                 format_bytes(container.value("total_anon_bytes", 0.0))};
    const json& anon = container.value("anon_bytes", json::object());
    for (const auto& id : node_ids) {
      row.push_back(anon.contains(id) ? format_bytes(anon[id].get<double>()) : "-");
    }
    top.push_back(std::move(row));
  }
  out += format_table(top) + "\n";

  const json& job = status.value("job", json());
  if (job.is_object()) {
    const json& progress = job.value("progress", json::object());
    out += fmt::format("job {}: node {} -> {}, {} moved of {}, {:.0f} MiB/s\n", job.value("id", 0),
                       job.value("source_node", 0), job.value("dest_nodes", json::array()).dump(),
                       format_bytes(progress.value("moved", 0.0)),
                       format_bytes(progress.value("goal", 0.0)),
                       progress.value("rate_mib_per_s", 0.0));
  } else {
    out += "job: none\n";
  }
  const json& last = status.value("last_round", json());
  if (last.is_object()) {
    out += fmt::format("last round #{}: {} {}\n", last.value("number", 0),
                       last.value("status", std::string()), last.value("reason", std::string()));
  }
  return out;
}

int run_top(const TopOptions& options) {
  auto client = AdminClient::connect(options.socket, std::chrono::seconds(10));
  if (!client) {
    std::cerr << "numabalancerctl: cannot connect to numabalancerd at " << options.socket.string()
              << ": " << client.error().message() << "\n";
    return kUsage;
  }
  struct sigaction action {};
  action.sa_handler = on_signal;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  TerminalMode terminal;
  while (true) {
    auto status = client->call("status");
    auto topology = client->call("topology");
    auto containers = client->call("containers", {{"limit", options.containers}});
    auto plan = client->call("plan");
    if (interrupted) {
      std::cout << "\n";
      return kOk;
    }
    if (!status || !status->ok()) {
      std::cout << "\x1b[H\x1b[2J"
                << "lost the daemon: "
                << (status ? status->error->message : status.error().message()) << "\n";
      return kFailed;
    }
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
