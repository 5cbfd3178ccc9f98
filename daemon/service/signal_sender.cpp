#include "daemon/service/signal_sender.hpp"

#include <signal.h>

#include <atomic>
#include <cstdint>

namespace nb::service {

namespace {

// The handler ours runs in front of (asio's). Written only while ours is not installed.
struct sigaction g_previous {};

// The sender not yet taken: uid in the high 32 bits, pid in the low, 0 for none. One lock-free
// word, so that the handler can store it.
std::atomic<std::uint64_t> g_sender{0};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

bool sent_by_a_process(const siginfo_t* info) {
  return info != nullptr && info->si_pid > 0 &&
         (info->si_code == SI_USER || info->si_code == SI_QUEUE || info->si_code == SI_TKILL);
}

void keep_sender_then_chain(int signal, siginfo_t* info, void* context) {
  if (sent_by_a_process(info)) {
    g_sender.store(std::uint64_t{static_cast<std::uint32_t>(info->si_uid)} << 32 |
                   static_cast<std::uint32_t>(info->si_pid));
  }
  if ((g_previous.sa_flags & SA_SIGINFO) != 0) {
    g_previous.sa_sigaction(signal, info, context);
  } else {
    g_previous.sa_handler(signal);
  }
}

bool is_ours(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) != 0 && action.sa_sigaction == keep_sender_then_chain;
}

bool handles_the_signal(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) != 0
             ? action.sa_sigaction != nullptr
             : action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN;
}

}  // namespace

Status chain_sighup_sender() {
  struct sigaction current {};
  if (::sigaction(SIGHUP, nullptr, &current) != 0) {
    return make_error(errno, "read SIGHUP's handler");
  }
  if (is_ours(current)) {
    return Ok{};
  }
  if (!handles_the_signal(current)) {
    // In front of the default action, a SIGHUP would be kept and then end the process.
    return make_error(0, "SIGHUP has no handler to put the sender's in front of");
  }
  g_previous = current;
  struct sigaction ours = current;
  ours.sa_sigaction = keep_sender_then_chain;
  ours.sa_flags = current.sa_flags | SA_SIGINFO;
  if (::sigaction(SIGHUP, &ours, nullptr) != 0) {
    return make_error(errno, "install SIGHUP's sender handler");
  }
  return Ok{};
}

std::optional<SignalSender> take_sighup_sender() {
  std::uint64_t sender = g_sender.exchange(0);
  if (sender == 0) {
    return std::nullopt;
  }
  return SignalSender{.uid = static_cast<uid_t>(sender >> 32),
                      .pid = static_cast<pid_t>(sender & 0xffffffffu)};
}

}  // namespace nb::service
