// Admin API latency under load: a real Daemon (fake host, policy and page mover, real loop,
// socket and command table) answers `status` to one client, then to 50 clients at once. Prints
// p50/p99 for both and the ratios, which are what to compare on a noisy machine.

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <asio.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "core/decide.hpp"
#include "daemon/service/daemon.hpp"
#include "daemon/service/extension_names.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using Micros = std::chrono::duration<double, std::micro>;

constexpr int kClients = 50;
constexpr int kRequestsPerClient = 200;
constexpr int kBaselineRequests = 2000;

nb::host::HostScan busy_host(nb::TimePoint now) {
  nb::host::HostScan document;
  document.snapshot.time = now;
  document.snapshot.nodes.resize(2);
  for (nb::NodeId id : {0, 1}) {
    auto& node = document.snapshot.nodes[static_cast<std::size_t>(id)];
    node.id = id;
    node.read_latency_ns = id == 0 ? 60 : 95;
    node.distance = {{id, 10}, {1 - id, 21}};
    node.cpus = id == 0 ? "0-15" : "16-31";
    node.total_bytes = 64 * nb::kGiB;
    node.free_bytes = 20 * nb::kGiB;
  }
  document.snapshot.pools = {nb::core::Pool{"share", {0, 1}}};
  for (int i = 0; i < 200; ++i) {
    document.snapshot.containers.push_back(
        nb::core::Container{"kubepods/pod" + std::to_string(i),
                            "share",
                            {{0, (i % 7) * 64 * nb::kMiB}, {1, (i % 11) * 128 * nb::kMiB}}});
  }
  return document;
}

nb::service::DaemonSeams fake_seams() {
  nb::service::DaemonSeams seams;
  seams.scan = [](nb::TimePoint now) -> nb::Result<nb::host::HostScan> { return busy_host(now); };
  seams.decide = [](const nb::core::Snapshot& snapshot, const nb::core::PolicyConfig& policy,
                    const nb::core::History& history,
                    nb::TimePoint now) { return nb::core::decide(snapshot, policy, history, now); };
  seams.load_config = [](const std::filesystem::path& path) {
    return nb::config::load_config_file(path, nb::service::extension_names());
  };
  seams.migrate = [](const std::vector<nb::actuator::MigrationTarget>&,
                     const nb::actuator::JobOptions& options, const std::atomic<bool>&,
                     const std::function<void(const nb::actuator::JobProgress&)>&) {
    nb::actuator::MigrationReport report;
    report.source_node = options.source_node;
    report.budget = options.budget;
    report.stop_reason = nb::actuator::StopReason::budget_met;
    return report;
  };
  return seams;
}

class Client {
 public:
  explicit Client(const std::string& path) : fd_(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      std::perror("connect");
      std::exit(1);
    }
  }
  ~Client() { ::close(fd_); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // One status round trip, in microseconds.
  double status() {
    static const std::string request = "{\"id\":1,\"cmd\":\"status\"}\n";
    auto start = Clock::now();
    if (::send(fd_, request.data(), request.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(request.size())) {
      std::perror("send");
      std::exit(1);
    }
    while (true) {
      auto newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        if (buffer_.find("\"ok\":true") > newline) {
          std::fprintf(stderr, "status failed: %s\n", buffer_.substr(0, newline).c_str());
          std::exit(1);
        }
        buffer_.erase(0, newline + 1);
        return Micros(Clock::now() - start).count();
      }
      char chunk[65536];
      ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
      if (got <= 0) {
        std::fprintf(stderr, "the daemon closed the connection\n");
        std::exit(1);
      }
      buffer_.append(chunk, static_cast<std::size_t>(got));
    }
  }

 private:
  int fd_;
  std::string buffer_;
};

double percentile(std::vector<double> values, double fraction) {
  std::sort(values.begin(), values.end());
  auto index = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1));
  return values[index];
}

struct Figures {
  double p50 = 0;
  double p99 = 0;
  double per_second = 0;
};

Figures figures(const std::vector<double>& latencies, Clock::duration wall) {
  return {percentile(latencies, 0.5), percentile(latencies, 0.99),
          static_cast<double>(latencies.size()) / std::chrono::duration<double>(wall).count()};
}

}  // namespace

int main() {
  auto dir =
      std::filesystem::temp_directory_path() / ("nb-bench-admin-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  spdlog::set_level(spdlog::level::warn);

  nb::config::Config config;
  config.daemon.interval = std::chrono::hours(1);
  config.daemon.state_dir = (dir / "state").string();
  config.daemon.lock_file = (dir / "numabalancerd.lock").string();
  config.admin.socket = (dir / "admin.sock").string();
  config.admin.admin_group = "";
  config.admin.max_clients = kClients + 8;

  asio::io_context io;
  nb::service::Daemon daemon(io, config, {}, fake_seams());
  if (auto started = daemon.start(); !started) {
    std::fprintf(stderr, "bench_admin_latency: %s\n", started.error().message().c_str());
    return 1;
  }
  std::thread loop([&] { io.run(); });

  std::vector<double> single;
  auto single_start = Clock::now();
  {
    Client client(config.admin.socket);
    for (int i = 0; i < kBaselineRequests; ++i) {
      single.push_back(client.status());
    }
  }
  auto baseline = figures(single, Clock::now() - single_start);

  std::vector<std::vector<double>> per_client(kClients);
  std::vector<std::thread> threads;
  auto many_start = Clock::now();
  for (int c = 0; c < kClients; ++c) {
    threads.emplace_back([&, c] {
      Client client(config.admin.socket);
      for (int i = 0; i < kRequestsPerClient; ++i) {
        per_client[static_cast<std::size_t>(c)].push_back(client.status());
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  auto many_wall = Clock::now() - many_start;
  std::vector<double> all;
  for (const auto& latencies : per_client) {
    all.insert(all.end(), latencies.begin(), latencies.end());
  }
  auto loaded = figures(all, many_wall);

  asio::post(io, [&] { daemon.request_stop(); });
  loop.join();
  std::filesystem::remove_all(dir);

  std::printf("admin `status` latency, real daemon loop and socket, %u hardware threads\n",
              std::thread::hardware_concurrency());
  std::printf("%-22s %10s %10s %12s\n", "", "p50", "p99", "requests/s");
  std::printf("%-22s %8.1f us %8.1f us %12.0f\n", "1 client", baseline.p50, baseline.p99,
              baseline.per_second);
  std::printf("%-22s %8.1f us %8.1f us %12.0f\n", "50 concurrent clients", loaded.p50, loaded.p99,
              loaded.per_second);
  std::printf("ratio 50 clients / 1:  p50 %.1fx  p99 %.1fx  throughput %.2fx\n",
              loaded.p50 / baseline.p50, loaded.p99 / baseline.p99,
              loaded.per_second / baseline.per_second);
  std::printf("p99 with 50 clients %s the 50 ms target\n",
              loaded.p99 <= 50'000 ? "meets" : "misses");
  return 0;
}
