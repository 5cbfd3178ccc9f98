#pragma once
// A Daemon with fake seams, its admin socket in a temp dir and its io_context on a thread of its
// own: the loop, the socket and the job thread are real; the host, the policy and the page
// mover are fakes the test steers.

#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>

#include "core/decide.hpp"
#include "daemon/service/daemon.hpp"
#include "daemon/service/extension_names.hpp"
#include "tests/daemon/service/socket_client.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::testing {

inline core::Decision ready_decision(std::vector<std::string> containers,
                                     std::vector<std::string> evict = {}) {
  core::Decision decision;
  decision.status = core::DecisionStatus::ready;
  decision.reason = "node 1 under force pressure";
  decision.level = core::PressureLevel::force;
  decision.source_node = 1;
  decision.dest_nodes = {0};
  for (const auto& id : containers) {
    decision.migrate.push_back(core::ContainerMove{id, 256 * kMiB, {0}});
    decision.total_bytes += 256 * kMiB;
  }
  for (const auto& id : evict) {
    decision.evict.push_back(core::ContainerEviction{id, 256 * kMiB});
  }
  return decision;
}

// The fixture of the daemon's process tests in daemon_test.cpp, daemon_clients_test.cpp and
// daemon_lifecycle_test.cpp: a temporary tree for the config, the state and the socket.
class DaemonTest : public ::testing::Test {
 protected:
  TempTree tree;
};

class DaemonHarness {
 public:
  // Shared with the job thread, hence the lock.
  struct Fakes {
    std::mutex mutex;
    std::condition_variable changed;
    core::Decision decision;               // what decide() returns
    bool real_policy = false;              // core::decide() instead, on the fake host's snapshot
    std::optional<double> bandwidth_gbps;  // every node's; none by default
    std::string bandwidth_reason;          // why the bandwidth provider has no data
    std::vector<std::size_t> history_sizes;
    core::History last_history;  // what the latest decide() was given
    std::map<NodeId, double> read_latency_ns{{0, 60}, {1, 95}};  // what the host reads
    bool latency_provider_down = false;  // then no node has a latency and the report says why
    bool hold_jobs = false;              // migrate() waits for release() or cancel
    bool job_entered = false;
    int migrate_calls = 0;
    std::vector<actuator::MigrationTarget> last_targets;
    actuator::JobOptions last_options;
    bool scan_fails = false;
    bool scan_throws = false;
    bool hold_scans = false;  // scan() waits for release_scans()
    // Faults on the loop thread: decide() throws; the next clock() read throws (once); the config
    // loader throws.
    bool decide_throws = false;
    bool clock_throws_once = false;
    bool load_config_throws = false;
    bool migrate_throws = false;
    bool scan_entered = false;
    int scan_calls = 0;
  };

  explicit DaemonHarness(const TempTree& tree, config::Config base = {})
      : tree_(tree), config_(std::move(base)) {
    config_.daemon.interval = std::chrono::hours(1);  // rounds only when a test asks
    config_.daemon.state_dir = tree.path("state").string();
    config_.daemon.lock_file = tree.path("run/numabalancerd.lock").string();
    config_.admin.socket = tree.path("run/admin.sock").string();
    config_.admin.admin_group = "";
  }

  ~DaemonHarness() { stop(); }

  config::Config& config() { return config_; }
  service::DaemonOptions& options() { return options_; }
  Fakes& fakes() { return fakes_; }
  std::string socket() const { return config_.admin.socket; }

  service::DaemonSeams seams() {
    service::DaemonSeams seams;
    seams.scan = [this](TimePoint now) { return scan(now); };
    seams.decide = [this](const core::Snapshot& snapshot, const core::PolicyConfig& policy,
                          const core::History& history, TimePoint now) {
      std::lock_guard lock(fakes_.mutex);
      fakes_.history_sizes.push_back(history.size());
      fakes_.last_history = history;
      if (fakes_.decide_throws) {
        throw std::out_of_range("map::at");
      }
      return fakes_.real_policy ? core::decide(snapshot, policy, history, now) : fakes_.decision;
    };
    seams.load_config = [this](const std::filesystem::path& path) {
      if (std::lock_guard lock(fakes_.mutex); fakes_.load_config_throws) {
        throw std::bad_alloc();
      }
      return config::load_config_file(path, service::extension_names());
    };
    seams.clock = [this] {
      std::lock_guard lock(fakes_.mutex);
      if (std::exchange(fakes_.clock_throws_once, false)) {
        throw std::system_error(EINVAL, std::generic_category(), "clock_gettime");
      }
      return std::chrono::system_clock::now();
    };
    seams.container_dir = [this](std::string_view id) { return tree_.path("cg") / id; };
    seams.migrate = [this](const std::vector<actuator::MigrationTarget>& targets,
                           const actuator::JobOptions& options, const std::atomic<bool>& cancel,
                           const std::function<void(const actuator::JobProgress&)>& progress) {
      return migrate(targets, options, cancel, progress);
    };
    return seams;
  }

  Status start() {
    daemon_ = std::make_unique<service::Daemon>(io_, config_, options_, seams());
    auto started = daemon_->start();
    if (started) {
      thread_ = std::thread([this] { io_.run(); });
    }
    return started;
  }

  void set_decision(core::Decision decision) {
    std::lock_guard lock(fakes_.mutex);
    fakes_.decision = std::move(decision);
  }
  void set_read_latency(NodeId node, double ns) {
    std::lock_guard lock(fakes_.mutex);
    fakes_.read_latency_ns[node] = ns;
  }
  void hold_jobs() {
    std::lock_guard lock(fakes_.mutex);
    fakes_.hold_jobs = true;
  }
  void release_jobs() {
    std::lock_guard lock(fakes_.mutex);
    fakes_.hold_jobs = false;
    fakes_.changed.notify_all();
  }
  void hold_scans() {
    std::lock_guard lock(fakes_.mutex);
    fakes_.hold_scans = true;
    fakes_.scan_entered = false;
  }
  void release_scans() {
    std::lock_guard lock(fakes_.mutex);
    fakes_.hold_scans = false;
    fakes_.changed.notify_all();
  }
  bool wait_for_scan_entered(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    std::unique_lock lock(fakes_.mutex);
    return fakes_.changed.wait_for(lock, timeout, [this] { return fakes_.scan_entered; });
  }
  int scan_calls() {
    std::lock_guard lock(fakes_.mutex);
    return fakes_.scan_calls;
  }

  // A round reads the host off the loop thread, so `reconcile` answers before the round is
  // done: this waits for the round's "round" event and returns the round as it was decided
  // (null on timeout).
  nlohmann::json reconcile(SocketClient& client,
                           std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    SocketClient watcher(socket());
    if (!watcher.call("watch").is_object()) {
      return nullptr;
    }
    auto reply = client.call("reconcile");
    if (!reply.is_object() || reply["ok"] != true) {
      return nullptr;
    }
    auto number = reply["result"]["round"]["number"];
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      auto line = watcher.read_line(timeout);
      if (!line) {
        return nullptr;
      }
      auto event = nlohmann::json::parse(*line, nullptr, false);
      if (event.is_object() && event["event"] == "round" && event["data"]["number"] == number) {
        return event["data"];
      }
    }
    return nullptr;
  }

  // A round that starts a job on pods/a, and the job stays until release_jobs() or a cancel: true
  // once the job has entered. The daemon must be running.
  bool start_a_held_job() {
    set_decision(ready_decision({"pods/a"}));
    hold_jobs();
    SocketClient client(socket());
    return reconcile(client)["outcome"] == "started" && wait_for_job_entered();
  }

  bool wait_for_job_entered(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    std::unique_lock lock(fakes_.mutex);
    return fakes_.changed.wait_for(lock, timeout, [this] { return fakes_.job_entered; });
  }
  int migrate_calls() {
    std::lock_guard lock(fakes_.mutex);
    return fakes_.migrate_calls;
  }

  // Polls status until the job is gone.
  bool wait_until_idle(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    SocketClient client(socket());
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      auto status = client.call("status");
      if (status.is_object() && status["result"]["job"].is_null()) {
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  void request_stop() {
    asio::post(io_, [this] { daemon_->request_stop(); });
  }

  // True when the io thread ended within the timeout.
  bool join(std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!io_.stopped() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    bool stopped = io_.stopped();
    if (thread_.joinable()) {
      if (!stopped) {
        io_.stop();
      }
      thread_.join();
    }
    return stopped;
  }

  void stop() {
    // Released even when the loop already ended: the destructor waits for both threads.
    release_jobs();
    release_scans();
    if (thread_.joinable()) {
      request_stop();
      join(std::chrono::seconds(10));
    }
    daemon_.reset();
  }

 private:
  // The host: two nodes, two containers, the latency provider up unless told otherwise.
  Result<host::HostScan> scan(TimePoint now) {
    std::unique_lock lock(fakes_.mutex);
    ++fakes_.scan_calls;
    fakes_.scan_entered = true;
    fakes_.changed.notify_all();
    fakes_.changed.wait(lock, [this] { return !fakes_.hold_scans; });
    if (fakes_.scan_throws) {
      throw std::runtime_error("sysfs went away mid-read");
    }
    if (fakes_.scan_fails) {
      return make_error(ENOENT, "read /sys/devices/system/node");
    }
    host::HostScan document;
    document.snapshot.time = now;
    document.snapshot.nodes.resize(2);
    for (NodeId id : {0, 1}) {
      auto& node = document.snapshot.nodes[static_cast<std::size_t>(id)];
      node.id = id;
      if (!fakes_.latency_provider_down) {
        node.read_latency_ns = fakes_.read_latency_ns.at(id);
      }
      node.bandwidth_gbps = fakes_.bandwidth_gbps;
      node.distance = {{id, 10}, {1 - id, 21}};
      node.cpus = std::to_string(id);
    }
    document.snapshot.pools = {core::Pool{"share", {0, 1}}};
    document.snapshot.containers = {
        core::Container{"pods/a", "share", {{0, 10 * kMiB}, {1, 300 * kMiB}}},
        core::Container{"pods/b", "share", {{1, 200 * kMiB}}}};
    host::ProviderReport latency;
    latency.metric = metrics::Metric::read_latency;
    latency.provider = fakes_.latency_provider_down ? "" : "file";
    latency.available = !fakes_.latency_provider_down;
    if (fakes_.latency_provider_down) {
      latency.reason = "file: /run/metrics.json: No such file or directory";
    }
    host::ProviderReport bandwidth;
    bandwidth.metric = metrics::Metric::bandwidth;
    bandwidth.reason = fakes_.bandwidth_reason;
    document.report.providers = {latency, bandwidth};
    return document;
  }

  // A job that reports 64 MiB of progress, waits while jobs are held, and then moves the whole
  // budget of its first target (nothing in dry-run; nothing after a cancel).
  actuator::MigrationReport migrate(
      const std::vector<actuator::MigrationTarget>& targets, const actuator::JobOptions& options,
      const std::atomic<bool>& cancel,
      const std::function<void(const actuator::JobProgress&)>& progress) {
    {
      std::unique_lock lock(fakes_.mutex);
      ++fakes_.migrate_calls;
      fakes_.last_targets = targets;
      fakes_.last_options = options;
      fakes_.job_entered = true;
      fakes_.changed.notify_all();
      if (fakes_.migrate_throws) {
        throw std::runtime_error("the engine broke");
      }
    }
    actuator::JobProgress started;
    started.moved = 64 * kMiB;
    started.goal = options.budget;
    started.rate_mib_per_s = 100;
    progress(started);
    {
      std::unique_lock lock(fakes_.mutex);
      while (fakes_.hold_jobs && !cancel.load()) {
        fakes_.changed.wait_for(lock, std::chrono::milliseconds(5));
      }
    }
    actuator::MigrationReport report;
    report.source_node = options.source_node;
    report.budget = options.budget;
    report.goal = options.budget;
    report.dry_run = options.dry_run;
    report.threshold = options.threshold;
    if (cancel.load()) {
      report.stop_reason = actuator::StopReason::cancelled;
      return report;
    }
    actuator::ContainerReport container;
    container.id = targets.front().container_id;
    actuator::ProcessReport process;
    process.pid = 1234;
    if (!options.dry_run) {
      process.bytes_moved_to[targets.front().dest_nodes.front()] = options.budget;
    }
    process.syscalls = 3;
    container.processes.push_back(process);
    report.containers.push_back(container);
    report.threshold_met = !options.dry_run;
    report.stop_reason = actuator::StopReason::budget_met;
    return report;
  }

  const TempTree& tree_;
  config::Config config_;
  service::DaemonOptions options_;
  Fakes fakes_;
  asio::io_context io_;
  std::unique_ptr<service::Daemon> daemon_;
  std::thread thread_;
};

}  // namespace nb::testing
