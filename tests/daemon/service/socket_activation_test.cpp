// Socket activation as systemd does it: LISTEN_PID and LISTEN_FDS name the listening socket at
// fd 3 (here a parameter, so that the test need not take fd 3 from the test runner).

#include "daemon/service/socket_activation.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

int unix_socket(int type, const std::filesystem::path& path, bool listening) {
  int fd = ::socket(AF_UNIX, type, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  if (listening) {
    EXPECT_EQ(::listen(fd, 4), 0);
  }
  return fd;
}

void activate(const std::string& pid, const std::string& count) {
  ::setenv("LISTEN_PID", pid.c_str(), 1);
  ::setenv("LISTEN_FDS", count.c_str(), 1);
  ::setenv("LISTEN_FDNAMES", "numabalancerd.socket", 1);
}

bool environment_cleared() {
  return std::getenv("LISTEN_PID") == nullptr && std::getenv("LISTEN_FDS") == nullptr &&
         std::getenv("LISTEN_FDNAMES") == nullptr;
}

TEST(SocketActivation, AdoptsTheListeningUnixStreamSocketSystemdPassed) {
  testing::TempTree tree;
  int fd = unix_socket(SOCK_STREAM, tree.path("admin.sock"), true);
  activate(std::to_string(::getpid()), "1");

  auto activated = take_activated_socket(fd);
  ASSERT_TRUE(activated.ok()) << activated.error().message();
  ASSERT_TRUE(activated->has_value());
  EXPECT_EQ((*activated)->fd, fd);
  EXPECT_EQ((*activated)->path, tree.path("admin.sock"));
  EXPECT_NE(::fcntl(fd, F_GETFD) & FD_CLOEXEC, 0) << "a child must not inherit the socket";
  EXPECT_TRUE(environment_cleared());
  ::close(fd);
}

TEST(SocketActivation, NothingWithoutTheEnvironment) {
  ::unsetenv("LISTEN_PID");
  ::unsetenv("LISTEN_FDS");
  auto activated = take_activated_socket(kListenFdsStart);
  ASSERT_TRUE(activated.ok());
  EXPECT_FALSE(activated->has_value());
}

// Variables meant for a parent (e.g. a wrapper that was itself activated) are not ours: the fd
// is left alone, and the variables do not reach our children either.
TEST(SocketActivation, IgnoresFdsMeantForAnotherProcess) {
  testing::TempTree tree;
  int fd = unix_socket(SOCK_STREAM, tree.path("admin.sock"), true);
  activate(std::to_string(::getpid() + 1), "1");

  auto activated = take_activated_socket(fd);
  ASSERT_TRUE(activated.ok());
  EXPECT_FALSE(activated->has_value());
  EXPECT_EQ(::fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_TRUE(environment_cleared());
  ::close(fd);
}

TEST(SocketActivation, RefusesADatagramSocket) {
  testing::TempTree tree;
  int fd = unix_socket(SOCK_DGRAM, tree.path("admin.sock"), false);
  activate(std::to_string(::getpid()), "1");
  auto activated = take_activated_socket(fd);
  ASSERT_FALSE(activated.ok());
  EXPECT_EQ(activated.error().code, EPROTOTYPE);
  EXPECT_NE(activated.error().message().find("not a Unix stream socket"), std::string::npos);
  EXPECT_TRUE(environment_cleared());
  ::close(fd);
}

TEST(SocketActivation, RefusesAStreamSocketThatIsNotListening) {
  testing::TempTree tree;
  int fd = unix_socket(SOCK_STREAM, tree.path("admin.sock"), false);
  activate(std::to_string(::getpid()), "1");
  auto activated = take_activated_socket(fd);
  ASSERT_FALSE(activated.ok());
  EXPECT_NE(activated.error().message().find("not listening"), std::string::npos);
  ::close(fd);
}

TEST(SocketActivation, RefusesAnFdThatIsNotASocket) {
  testing::TempTree tree;
  auto file = tree.make_file("plain", "");
  int fd = ::open(file.c_str(), O_RDONLY);
  activate(std::to_string(::getpid()), "1");
  auto activated = take_activated_socket(fd);
  ASSERT_FALSE(activated.ok());
  EXPECT_EQ(activated.error().code, ENOTSOCK);
  ::close(fd);
}

TEST(SocketActivation, RefusesAnInternetSocket) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::listen(fd, 1), 0);  // binds an ephemeral loopback-or-any port
  activate(std::to_string(::getpid()), "1");
  auto activated = take_activated_socket(fd);
  ASSERT_FALSE(activated.ok());
  EXPECT_EQ(activated.error().code, EPROTOTYPE);
  ::close(fd);
}

TEST(SocketActivation, RefusesMoreThanOneSocket) {
  testing::TempTree tree;
  int fd = unix_socket(SOCK_STREAM, tree.path("admin.sock"), true);
  activate(std::to_string(::getpid()), "2");
  auto activated = take_activated_socket(fd);
  ASSERT_FALSE(activated.ok());
  EXPECT_NE(activated.error().message().find("exactly one socket"), std::string::npos);
  EXPECT_TRUE(environment_cleared());
  ::close(fd);
}

}  // namespace
}  // namespace nb::service
