// The host scan runs off the loop thread under a deadline: a scan that never returns (a FIFO at
// a provider's path, a probe that never finishes) fails its round instead of stalling rounds
// for good, and while it is stuck later rounds fail at once rather than piling up threads.

#include "daemon/service/scan_runner.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace nb::service {
namespace {

using namespace std::chrono_literals;

class Gate {
 public:
  void wait() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return open_; });
  }
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
};

struct Answer {
  bool ran = false;
  int error = 0;
  std::string message;
};

ScanRunner::Done record_into(Answer& answer) {
  return [&answer](Result<host::HostScan> scanned) {
    answer.ran = true;
    if (!scanned) {
      answer.error = scanned.error().code;
      answer.message = scanned.error().message();
    }
  };
}

// run_for returns at once when the loop has no work, and a scan thread is not the loop's work.
void run_until(asio::io_context& io, const Answer& answer) {
  for (int i = 0; i < 500 && !answer.ran; ++i) {
    io.restart();
    io.run_for(10ms);
    std::this_thread::sleep_for(1ms);
  }
}

TEST(ScanRunner, AScanThatReturnsInTimeAnswersWithItsResult) {
  asio::io_context io;
  ScanRunner runner(io, [](TimePoint) -> Result<host::HostScan> { return host::HostScan{}; });
  Answer answer;
  runner.start(TimePoint{}, 5s, record_into(answer));
  run_until(io, answer);
  ASSERT_TRUE(answer.ran);
  EXPECT_EQ(answer.error, 0) << answer.message;
  EXPECT_FALSE(runner.running_for().has_value());
}

TEST(ScanRunner, AStuckScanFailsAtItsDeadlineAndLaterScansFailAtOnceUntilItEnds) {
  asio::io_context io;
  Gate gate;
  int scans = 0;
  ScanRunner runner(io, [&](TimePoint) -> Result<host::HostScan> {
    ++scans;
    gate.wait();
    return host::HostScan{};
  });
  Answer first;
  runner.start(TimePoint{}, 50ms, record_into(first));
  run_until(io, first);
  ASSERT_TRUE(first.ran) << "the deadline never fired";
  EXPECT_EQ(first.error, ETIMEDOUT);
  EXPECT_EQ(first.message,
            "the host scan did not finish within 50ms ([daemon] scan_timeout): Connection timed "
            "out");
  ASSERT_TRUE(runner.running_for().has_value());

  Answer second;
  runner.start(TimePoint{}, 50ms, record_into(second));
  run_until(io, second);
  ASSERT_TRUE(second.ran);
  EXPECT_EQ(second.error, EBUSY);
  EXPECT_NE(second.message.find("the previous host scan is still running"), std::string::npos)
      << second.message;
  EXPECT_EQ(scans, 1) << "no second thread while the first is stuck";

  gate.open();
  for (int i = 0; i < 500 && runner.running_for(); ++i) {
    std::this_thread::sleep_for(10ms);
  }
  Answer third;
  runner.start(TimePoint{}, 5s, record_into(third));
  run_until(io, third);
  ASSERT_TRUE(third.ran);
  EXPECT_EQ(third.error, 0) << third.message;
  EXPECT_EQ(scans, 2);
}

TEST(ScanRunner, AScanThatThrowsIsAFailedScan) {
  asio::io_context io;
  ScanRunner runner(
      io, [](TimePoint) -> Result<host::HostScan> { throw std::runtime_error("sysfs went away"); });
  Answer answer;
  runner.start(TimePoint{}, 5s, record_into(answer));
  run_until(io, answer);
  ASSERT_TRUE(answer.ran);
  EXPECT_EQ(answer.message, "the host scan threw: sysfs went away");
}

}  // namespace
}  // namespace nb::service
