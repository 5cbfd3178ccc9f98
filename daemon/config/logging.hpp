#pragma once
// The daemon's logger: spdlog writing to stderr through an asynchronous queue. Under memory
// pressure the daemon must keep deciding and moving pages, so a full queue drops the oldest
// messages (counted by dropped_log_messages()) instead of blocking the caller.

#include <spdlog/formatter.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/sink.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace nb::config {

// Messages waiting for the writer thread; beyond this the oldest are dropped.
inline constexpr std::size_t kLogQueueMessages = 8192;

enum class LogTarget { terminal, journal };

// systemd sets JOURNAL_STREAM to "device:inode" of the stream it connected stderr to. stderr is
// the journal only while it is still that stream: a child whose stderr was redirected inherits
// the variable too. A value that cannot be parsed is trusted.
LogTarget detect_log_target(const char* journal_stream, int stderr_fd);

// The journal stamps each line itself and reads a "<N>" syslog priority prefix, so journal lines
// carry the priority and no timestamp; terminal lines carry a timestamp and the level name.
std::string log_pattern(LogTarget target);
// A formatter for that pattern, with %* as the syslog priority digit of the message's level.
std::unique_ptr<spdlog::formatter> make_log_formatter(LogTarget target);

// `--log-level` (empty when not given) overrides [daemon] log_level.
std::string_view choose_log_level(std::string_view command_line, std::string_view configured);

// Installs (first call) or reconfigures (later calls, e.g. on reload) the default logger. The
// level is one of is_valid_log_level(); anything else logs a warning and uses "info".
void setup_logging(std::string_view level);

// An asynchronous logger on the shared writer thread, with the drop-oldest policy.
std::shared_ptr<spdlog::logger> make_async_logger(std::string name, spdlog::sink_ptr sink);

// Messages dropped so far because the queue was full (exported as a metric).
std::size_t dropped_log_messages();

// Writes out what is queued and stops the writer thread; call before exit.
void shutdown_logging();

}  // namespace nb::config
