#include "daemon/service/sd_notify.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

// What systemd does: a datagram socket that collects the daemon's notifications.
class NotifyListener {
 public:
  explicit NotifyListener(const std::string& path, bool abstract = false) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.data(), path.size());
    socklen_t length = offsetof(sockaddr_un, sun_path) + path.size();
    if (abstract) {
      address.sun_path[0] = '\0';
    } else {
      length += 1;
    }
    bound_ = ::bind(fd_, reinterpret_cast<sockaddr*>(&address), length) == 0;
  }
  ~NotifyListener() { ::close(fd_); }
  bool bound() const { return bound_; }

  std::string receive() {
    pollfd waiting{fd_, POLLIN, 0};
    if (::poll(&waiting, 1, 2000) <= 0) {
      return "";
    }
    char buffer[4096];
    ssize_t got = ::recv(fd_, buffer, sizeof buffer, 0);
    return got > 0 ? std::string(buffer, static_cast<std::size_t>(got)) : "";
  }

 private:
  int fd_ = -1;
  bool bound_ = false;
};

TEST(SystemdNotifier, SendsReadyStatusStoppingToAPathSocket) {
  testing::TempTree tree;
  auto path = tree.path("notify").string();
  NotifyListener listener(path);
  ASSERT_TRUE(listener.bound());
  SystemdNotifier notifier(path);
  ASSERT_TRUE(notifier.ready("round 1: idle").ok());
  EXPECT_EQ(listener.receive(), "READY=1\nSTATUS=round 1: idle");
  ASSERT_TRUE(notifier.status("busy").ok());
  EXPECT_EQ(listener.receive(), "STATUS=busy");
  ASSERT_TRUE(notifier.stopping().ok());
  EXPECT_EQ(listener.receive(), "STOPPING=1");
}

TEST(SystemdNotifier, AbstractAddressStartsWithAt) {
  std::string name = "@nb-test-notify-" + std::to_string(::getpid());
  NotifyListener listener(name, /*abstract=*/true);
  ASSERT_TRUE(listener.bound());
  SystemdNotifier notifier(name, std::chrono::seconds(30));
  ASSERT_TRUE(notifier.watchdog().ok());
  EXPECT_EQ(listener.receive(), "WATCHDOG=1");
}

TEST(SystemdNotifier, WithoutNotifySocketEverythingIsANoOp) {
  SystemdNotifier notifier("");
  EXPECT_FALSE(notifier.enabled());
  EXPECT_TRUE(notifier.ready("x").ok());
}

TEST(SystemdNotifier, WatchdogIsSilentWhenNotConfigured) {
  testing::TempTree tree;
  auto path = tree.path("notify").string();
  NotifyListener listener(path);
  SystemdNotifier notifier(path);
  ASSERT_TRUE(notifier.watchdog().ok());
  ASSERT_TRUE(notifier.status("after").ok());
  EXPECT_EQ(listener.receive(), "STATUS=after");
}

TEST(SystemdNotifier, MissingSocketIsAnError) {
  testing::TempTree tree;
  SystemdNotifier notifier(tree.path("absent").string());
  auto sent = notifier.ready("x");
  ASSERT_FALSE(sent.ok());
  EXPECT_NE(sent.error().code, 0);
}

TEST(SystemdNotifier, ReadsWatchdogFromTheEnvironment) {
  ::setenv("NOTIFY_SOCKET", "/run/systemd/notify", 1);
  ::setenv("WATCHDOG_USEC", "30000000", 1);
  ::setenv("WATCHDOG_PID", std::to_string(::getpid()).c_str(), 1);
  auto notifier = SystemdNotifier::from_environment();
  ::setenv("WATCHDOG_PID", "1", 1);
  auto for_someone_else = SystemdNotifier::from_environment();
  ::unsetenv("NOTIFY_SOCKET");
  ::unsetenv("WATCHDOG_USEC");
  ::unsetenv("WATCHDOG_PID");
  EXPECT_TRUE(notifier.enabled());
  EXPECT_EQ(notifier.watchdog_interval(), std::chrono::microseconds(30'000'000));
  EXPECT_FALSE(for_someone_else.watchdog_interval().has_value());
}

}  // namespace
}  // namespace nb::service
