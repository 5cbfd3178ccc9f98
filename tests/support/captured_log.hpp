#pragma once
// Routes spdlog's default logger into memory for one test, so that what the code under test logged
// can be read back and counted; the previous logger comes back when it goes out of scope.

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace nb::testing {

class CapturedLog {
 public:
  CapturedLog()
      : sink_(std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(64)),
        previous_(spdlog::default_logger()) {
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("captured", sink_));
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }
  CapturedLog(const CapturedLog&) = delete;
  CapturedLog& operator=(const CapturedLog&) = delete;

  std::vector<std::string> lines() { return sink_->last_formatted(); }

  // How many lines hold `piece`.
  std::size_t count(std::string_view piece) {
    std::size_t found = 0;
    for (const std::string& line : lines()) {
      found += line.find(piece) != std::string::npos ? 1 : 0;
    }
    return found;
  }

 private:
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink_;
  std::shared_ptr<spdlog::logger> previous_;
};

}  // namespace nb::testing
