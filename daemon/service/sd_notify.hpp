#pragma once
// systemd's notify protocol spoken directly over $NOTIFY_SOCKET (a datagram to a path, or to an
// abstract address when it starts with '@'), so that the daemon needs no libsystemd.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace nb::service {

class SystemdNotifier {
 public:
  // Reads NOTIFY_SOCKET and WATCHDOG_USEC/WATCHDOG_PID; does nothing when not under systemd.
  static SystemdNotifier from_environment();
  explicit SystemdNotifier(std::string socket_path,
                           std::optional<std::chrono::microseconds> watchdog = std::nullopt);

  bool enabled() const { return !socket_path_.empty(); }
  std::optional<std::chrono::microseconds> watchdog_interval() const { return watchdog_; }

  // `state` is newline-separated KEY=VALUE pairs, e.g. "READY=1\nSTATUS=idle".
  Status notify(std::string_view state) const;
  Status ready(std::string_view status) const;
  Status status(std::string_view status) const;
  Status stopping() const;
  Status watchdog() const;  // no-op when no watchdog is configured

 private:
  std::string socket_path_;
  std::optional<std::chrono::microseconds> watchdog_;
};

}  // namespace nb::service
