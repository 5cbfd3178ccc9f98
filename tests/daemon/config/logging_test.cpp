#include "daemon/config/logging.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spdlog/async_logger.h>
#include <spdlog/details/log_msg.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <mutex>
#include <string>

#include "tests/support/temp_tree.hpp"

namespace nb::config {
namespace {

using namespace std::chrono_literals;

std::string format_line(LogTarget target, spdlog::level::level_enum level, std::string_view text) {
  spdlog::details::log_msg message("numabalancerd", level, text);
  spdlog::memory_buf_t out;
  make_log_formatter(target)->format(message, out);
  return fmt::to_string(out);
}

TEST(LogPattern, JournalLinesHaveNoTimestamp) {
  std::string pattern = log_pattern(LogTarget::journal);
  for (std::string_view time_flag : {"%Y", "%m", "%d", "%H", "%M", "%S", "%T", "%e", "%+", "%c"}) {
    EXPECT_EQ(pattern.find(time_flag), std::string::npos) << time_flag << " in " << pattern;
  }
}

TEST(LogPattern, TerminalLinesHaveATimestamp) {
  std::string pattern = log_pattern(LogTarget::terminal);
  EXPECT_NE(pattern.find("%Y-%m-%d %H:%M:%S"), std::string::npos) << pattern;
}

struct PriorityCase {
  spdlog::level::level_enum level;
  std::string line;
};

class JournalLine : public ::testing::TestWithParam<PriorityCase> {};

TEST_P(JournalLine, StartsWithTheSyslogPriorityAndCarriesNoTime) {
  EXPECT_EQ(format_line(LogTarget::journal, GetParam().level, "node 0 hot"), GetParam().line);
}

INSTANTIATE_TEST_SUITE_P(Levels, JournalLine,
                         ::testing::Values(PriorityCase{spdlog::level::critical, "<2>node 0 hot\n"},
                                           PriorityCase{spdlog::level::err, "<3>node 0 hot\n"},
                                           PriorityCase{spdlog::level::warn, "<4>node 0 hot\n"},
                                           PriorityCase{spdlog::level::info, "<6>node 0 hot\n"},
                                           PriorityCase{spdlog::level::debug, "<7>node 0 hot\n"},
                                           PriorityCase{spdlog::level::trace, "<7>node 0 hot\n"}));

TEST(TerminalLine, CarriesDateLevelAndMessage) {
  std::string line = format_line(LogTarget::terminal, spdlog::level::warn, "node 0 hot");
  // "2026-12-02 15:00:00.000 warn  node 0 hot"
  ASSERT_GE(line.size(), 24u) << line;
  EXPECT_EQ(line[4], '-');
  EXPECT_EQ(line[13], ':');
  EXPECT_NE(line.find("warn"), std::string::npos) << line;
  EXPECT_NE(line.find("node 0 hot\n"), std::string::npos) << line;
}

class JournalStream : public ::testing::Test {
 protected:
  void SetUp() override {
    fd_ = ::open(tree_.make_file("stderr", "").c_str(), O_WRONLY);
    ASSERT_GE(fd_, 0);
    struct stat status {};
    ASSERT_EQ(::fstat(fd_, &status), 0);
    matching_ = std::to_string(status.st_dev) + ":" + std::to_string(status.st_ino);
    other_ = std::to_string(status.st_dev) + ":" + std::to_string(status.st_ino + 1);
  }
  void TearDown() override {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }

  nb::testing::TempTree tree_;
  int fd_ = -1;
  std::string matching_;
  std::string other_;
};

TEST_F(JournalStream, UnsetMeansTerminal) {
  EXPECT_EQ(detect_log_target(nullptr, fd_), LogTarget::terminal);
  EXPECT_EQ(detect_log_target("", fd_), LogTarget::terminal);
}

TEST_F(JournalStream, MatchingDeviceAndInodeMeansJournal) {
  EXPECT_EQ(detect_log_target(matching_.c_str(), fd_), LogTarget::journal);
}

TEST_F(JournalStream, InheritedValueForAnotherStreamMeansTerminal) {
  EXPECT_EQ(detect_log_target(other_.c_str(), fd_), LogTarget::terminal);
}

TEST_F(JournalStream, UnparsableValueIsTrusted) {
  EXPECT_EQ(detect_log_target("journal", fd_), LogTarget::journal);
}

TEST(ChooseLogLevel, CommandLineOverridesTheConfig) {
  EXPECT_EQ(choose_log_level("debug", "info"), "debug");
  EXPECT_EQ(choose_log_level("", "warn"), "warn");
}

TEST(SetupLogging, InstallsAnAsynchronousDefaultLoggerAtTheLevel) {
  setup_logging("debug");
  auto logger = spdlog::default_logger();
  EXPECT_NE(std::dynamic_pointer_cast<spdlog::async_logger>(logger), nullptr);
  EXPECT_EQ(logger->level(), spdlog::level::debug);

  setup_logging("error");
  EXPECT_EQ(spdlog::default_logger(), logger) << "reconfiguring must keep the same logger";
  EXPECT_EQ(logger->level(), spdlog::level::err);

  setup_logging("off");
  EXPECT_EQ(logger->level(), spdlog::level::off);
}

TEST(SetupLogging, UnknownLevelFallsBackToInfo) {
  setup_logging("off");
  setup_logging("loud");
  EXPECT_EQ(spdlog::default_logger()->level(), spdlog::level::info);
  setup_logging("off");
}

// A sink that stalls like a blocked stderr pipe until released.
class StalledSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  void release() { released_.set_value(); }

 protected:
  void sink_it_(const spdlog::details::log_msg&) override { gate_.wait(); }
  void flush_() override {}

 private:
  std::promise<void> released_;
  std::shared_future<void> gate_ = released_.get_future().share();
};

TEST(AsyncLogger, FullQueueDropsInsteadOfBlockingTheCaller) {
  auto sink = std::make_shared<StalledSink>();
  auto logger = make_async_logger("stalled", sink);
  std::size_t dropped_before = dropped_log_messages();

  auto writer = std::async(std::launch::async, [&] {
    for (std::size_t i = 0; i < kLogQueueMessages + 1000; ++i) {
      logger->info("message {}", i);
    }
  });
  bool returned = writer.wait_for(10s) == std::future_status::ready;
  sink->release();
  writer.wait();

  EXPECT_TRUE(returned) << "logging blocked on a full queue";
  EXPECT_GT(dropped_log_messages(), dropped_before);
}

}  // namespace
}  // namespace nb::config
