#include "daemon/config/logging.hpp"

#include <spdlog/async.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <mutex>

#include "daemon/config/validate.hpp"

namespace nb::config {
namespace {

constexpr std::string_view kLoggerName = "numabalancerd";

// %* in a pattern: the syslog priority journald reads from a "<N>" line prefix.
class SyslogPriorityFlag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& message, const std::tm&,
              spdlog::memory_buf_t& out) override {
    char priority = '6';
    switch (message.level) {
      case spdlog::level::trace:
      case spdlog::level::debug:
        priority = '7';
        break;
      case spdlog::level::info:
        priority = '6';
        break;
      case spdlog::level::warn:
        priority = '4';
        break;
      case spdlog::level::err:
        priority = '3';
        break;
      case spdlog::level::critical:
        priority = '2';
        break;
      default:
        break;
    }
    out.push_back(priority);
  }

  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<SyslogPriorityFlag>();
  }
};

std::mutex setup_mutex;
std::shared_ptr<spdlog::logger> daemon_logger;  // guarded by setup_mutex

// Created on first use, and again after shutdown_logging() if logging starts over.
std::shared_ptr<spdlog::details::thread_pool> writer_thread() {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  if (!spdlog::thread_pool()) {
    spdlog::init_thread_pool(kLogQueueMessages, 1);
  }
  return spdlog::thread_pool();
}

}  // namespace

LogTarget detect_log_target(const char* journal_stream, int stderr_fd) {
  if (journal_stream == nullptr || *journal_stream == '\0') {
    return LogTarget::terminal;
  }
  std::string_view text(journal_stream);
  std::size_t colon = text.find(':');
  unsigned long long device = 0;
  unsigned long long inode = 0;
  const char* end = text.data() + text.size();
  bool parsed =
      colon != std::string_view::npos &&
      std::from_chars(text.data(), text.data() + colon, device).ptr == text.data() + colon &&
      std::from_chars(text.data() + colon + 1, end, inode).ptr == end;
  if (!parsed) {
    return LogTarget::journal;
  }
  struct stat status {};
  if (fstat(stderr_fd, &status) != 0) {
    return LogTarget::terminal;
  }
  bool same = static_cast<unsigned long long>(status.st_dev) == device &&
              static_cast<unsigned long long>(status.st_ino) == inode;
  return same ? LogTarget::journal : LogTarget::terminal;
}

std::string log_pattern(LogTarget target) {
  if (target == LogTarget::journal) {
    return "<%*>%v";
  }
  return "%Y-%m-%d %H:%M:%S.%e %^%-5l%$ %v";
}

std::unique_ptr<spdlog::formatter> make_log_formatter(LogTarget target) {
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<SyslogPriorityFlag>('*').set_pattern(log_pattern(target));
  return formatter;
}

std::string_view choose_log_level(std::string_view command_line, std::string_view configured) {
  return command_line.empty() ? configured : command_line;
}

std::shared_ptr<spdlog::logger> make_async_logger(std::string name, spdlog::sink_ptr sink) {
  return std::make_shared<spdlog::async_logger>(std::move(name), std::move(sink), writer_thread(),
                                                spdlog::async_overflow_policy::overrun_oldest);
}

void setup_logging(std::string_view level) {
  std::lock_guard lock(setup_mutex);
  if (!daemon_logger) {
    daemon_logger = make_async_logger(std::string(kLoggerName),
                                      std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    spdlog::set_default_logger(daemon_logger);
  }
  LogTarget target = detect_log_target(std::getenv("JOURNAL_STREAM"), STDERR_FILENO);
  daemon_logger->set_formatter(make_log_formatter(target));
  // Warnings and errors reach the terminal or journal promptly even when the daemon then dies.
  daemon_logger->flush_on(spdlog::level::warn);
  bool valid = is_valid_log_level(level);
  daemon_logger->set_level(valid ? spdlog::level::from_str(std::string(level))
                                 : spdlog::level::info);
  if (!valid) {
    daemon_logger->warn("unknown log level \"{}\"; using info", level);
  }
}

std::size_t dropped_log_messages() {
  return writer_thread()->overrun_counter();
}

void shutdown_logging() {
  std::lock_guard lock(setup_mutex);
  daemon_logger.reset();
  spdlog::shutdown();
}

}  // namespace nb::config
