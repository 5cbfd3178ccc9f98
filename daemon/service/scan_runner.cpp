#include "daemon/service/scan_runner.hpp"

#include <asio/post.hpp>
#include <atomic>
#include <cerrno>
#include <exception>

#include "base/human_format.hpp"
#include "base/parse_units.hpp"

namespace nb::service {

struct ScanRunner::Flight {
  Done done;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::atomic<bool> finished = false;  // the thread returned from the scan
  bool answered = false;               // `done` ran; loop thread only
};

ScanRunner::ScanRunner(asio::io_context& io, Scan scan)
    : io_(io), scan_(std::move(scan)), deadline_(io) {}

ScanRunner::~ScanRunner() {
  if (thread_.joinable()) {
    thread_.join();
  }
}

void ScanRunner::start(TimePoint now, Duration deadline, Done done) {
  if (thread_.joinable() && flight_->finished) {
    thread_.join();
  }
  if (thread_.joinable()) {
    auto stuck =
        std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now() - flight_->started);
    asio::post(io_, [done = std::move(done), stuck] {
      done(make_error(EBUSY,
                      "the previous host scan is still running after " + format_duration(stuck)));
    });
    return;
  }
  auto flight = std::make_shared<Flight>();
  flight->done = std::move(done);
  flight_ = flight;
  thread_ = std::thread([this, flight, scan = scan_, now] {
    auto result = std::make_shared<Result<host::HostScan>>(make_error(0, "the scan did not run"));
    try {
      *result = scan(now);
    } catch (const std::exception& e) {
      *result = make_error(0, std::string("the host scan threw: ") + e.what());
    }
    flight->finished = true;
    asio::post(io_, [this, flight, result] { land(flight, std::move(*result)); });
  });
  deadline_.expires_after(deadline);
  deadline_.async_wait([flight, deadline](asio::error_code error) {
    if (error || flight->answered) {
      return;
    }
    flight->answered = true;
    flight->done(make_error(ETIMEDOUT, "the host scan did not finish within " +
                                           exact_duration_text(deadline) +
                                           " ([daemon] scan_timeout)"));
  });
}

void ScanRunner::land(const std::shared_ptr<Flight>& flight, Result<host::HostScan> result) {
  if (flight == flight_ && thread_.joinable()) {
    thread_.join();
  }
  if (flight->answered) {
    return;  // it overran: its round already failed
  }
  flight->answered = true;
  deadline_.cancel();
  flight->done(std::move(result));
}

std::optional<std::chrono::steady_clock::duration> ScanRunner::running_for() const {
  if (!thread_.joinable() || flight_->finished) {
    return std::nullopt;
  }
  return std::chrono::steady_clock::now() - flight_->started;
}

}  // namespace nb::service
