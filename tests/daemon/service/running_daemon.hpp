#pragma once
// The real numabalancerd binary on this host, configured in a temp tree: the `file` metrics
// provider reads a JSON file the test writes, and the socket, lock and state live in the tree.

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "tests/daemon/service/child_process.hpp"
#include "tests/daemon/service/socket_client.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::testing {

inline std::string e2e_config(const TempTree& tree, const std::string& daemon_extra = "") {
  return "[daemon]\ninterval = \"500ms\"\nstate_dir = \"" + tree.path("state").string() +
         "\"\nlock_file = \"" + tree.path("run/numabalancerd.lock").string() + "\"\n" +
         daemon_extra + "\n[admin]\nsocket = \"" + tree.path("run/admin.sock").string() +
         "\"\nadmin_group = \"\"\n\n[metrics]\nlatency = \"file\"\nbandwidth = \"none\"\n\n"
         "[metrics.file]\npath = \"" +
         tree.path("metrics.json").string() +
         "\"\nmax_age = \"1h\"\n\n[[pool]]\nname = \"share\"\ncgroups = [\"nb-e2e-absent/*\"]\n";
}

inline void write_metrics(const TempTree& tree, double latency_ns) {
  auto now = std::chrono::duration_cast<std::chrono::seconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  tree.make_file("metrics.json", "{\"time\": " + std::to_string(now) +
                                     ", \"nodes\": [{\"id\": 0, \"read_latency_ns\": " +
                                     std::to_string(latency_ns) + "}]}");
}

// Polls until the admin socket answers `status`.
inline bool wait_for_socket(const std::string& path,
                            std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    SocketClient client(path);
    if (client.connected() && client.call("status").is_object()) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

class RunningDaemon {
 public:
  explicit RunningDaemon(const TempTree& tree, const std::string& daemon_extra = "",
                         const std::vector<std::string>& environment = {})
      : tree_(tree) {
    write_metrics(tree, 95.5);
    config_ = tree.make_file("config.toml", e2e_config(tree, daemon_extra));
    process_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{binary("numabalancerd"), "--config", config_.string()},
        tree.root(), environment);
  }
  ~RunningDaemon() {
    if (process_->started() && !process_->wait(std::chrono::milliseconds(0))) {
      process_->signal(SIGTERM);
      process_->wait(std::chrono::seconds(10));
    }
  }

  ChildProcess& process() { return *process_; }
  std::string socket() const { return tree_.path("run/admin.sock").string(); }
  std::filesystem::path config() const { return config_; }
  bool ready() { return wait_for_socket(socket()); }

  // numabalancerctl against this daemon.
  std::unique_ptr<ChildProcess> ctl(std::vector<std::string> args) const {
    std::vector<std::string> argv{binary("numabalancerctl"), "--socket", socket()};
    argv.insert(argv.end(), args.begin(), args.end());
    return std::make_unique<ChildProcess>(argv, tree_.root());
  }

 private:
  const TempTree& tree_;
  std::filesystem::path config_;
  std::unique_ptr<ChildProcess> process_;
};

}  // namespace nb::testing
