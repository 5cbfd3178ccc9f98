#pragma once
// Reads the host off the loop thread, one scan at a time, and hands the result back on the loop
// thread. A scan has a deadline: one that overruns it (a provider file that blocks, a probe that
// never finishes its first round) ends its round as failed with the reason, and while its thread
// is still stuck every later round fails at once instead of piling up threads.

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <thread>

#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/host/host_scan.hpp"

namespace nb::service {

class ScanRunner {
 public:
  using Scan = std::function<Result<host::HostScan>(TimePoint now)>;
  using Done = std::function<void(Result<host::HostScan>)>;

  ScanRunner(asio::io_context& io, Scan scan);
  // Waits for a scan still running: tests release theirs. The daemon's process leaves without
  // waiting when a scan is stuck (see run_daemon).
  ~ScanRunner();
  ScanRunner(const ScanRunner&) = delete;
  ScanRunner& operator=(const ScanRunner&) = delete;

  // Scans the host as of `now` on a thread of its own; `done` runs once on the loop thread, with
  // the scan's result or with ETIMEDOUT when `deadline` passes first.
  void start(TimePoint now, Duration deadline, Done done);

  // How long the scan thread has been running, if one is (one that overran included).
  std::optional<std::chrono::steady_clock::duration> running_for() const;

 private:
  struct Flight;

  void land(const std::shared_ptr<Flight>& flight, Result<host::HostScan> result);

  asio::io_context& io_;
  Scan scan_;
  asio::steady_timer deadline_;
  std::thread thread_;
  std::shared_ptr<Flight> flight_;
};

}  // namespace nb::service
