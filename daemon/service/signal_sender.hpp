#pragma once
// Who sent the daemon its SIGHUP. Asio's signal_set says which signal arrived but not who sent
// it, and the audit trail of a reload should name its sender as it names a socket peer.
// chain_sighup_sender() puts an SA_SIGINFO handler in front of the one asio installed for
// SIGHUP: it keeps the sender's uid and pid and then calls asio's, so the reload still arrives
// through the signal_set, on the io_context.

#include <sys/types.h>

#include <optional>

#include "base/result.hpp"

namespace nb::service {

struct SignalSender {
  uid_t uid = 0;
  pid_t pid = 0;
  bool operator==(const SignalSender&) const = default;
};

// Call once SIGHUP has a handler (the signal_set's add); calling it again changes nothing. An
// error leaves that handler in place: reloads work, their senders stay unknown.
Status chain_sighup_sender();

// The sender of the latest SIGHUP not yet taken, when a process sent it (kill, `systemctl
// reload`); none when the kernel raised it or nothing arrived. Two signals before one take
// leave the later sender.
std::optional<SignalSender> take_sighup_sender();

}  // namespace nb::service
