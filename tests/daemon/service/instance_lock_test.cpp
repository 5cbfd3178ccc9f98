#include "daemon/service/instance_lock.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

TEST(InstanceLock, SecondHolderIsRefusedWithTheFirstPid) {
  testing::TempTree tree;
  auto path = tree.path("run/numabalancerd.lock");
  auto first = InstanceLock::acquire(path);
  ASSERT_TRUE(first.ok()) << first.error().message();
  auto second = InstanceLock::acquire(path);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().code, EWOULDBLOCK);
  EXPECT_NE(second.error().message().find("pid " + std::to_string(::getpid())), std::string::npos);
  EXPECT_EQ(read_lock_holder(path), ::getpid());
}

TEST(InstanceLock, ReleasedWhenTheHolderGoes) {
  testing::TempTree tree;
  auto path = tree.path("lock");
  {
    auto first = InstanceLock::acquire(path);
    ASSERT_TRUE(first.ok());
  }
  EXPECT_TRUE(InstanceLock::acquire(path).ok());
}

TEST(StaleSocket, LeftoverSocketIsRemoved) {
  testing::TempTree tree;
  auto path = tree.path("admin.sock");
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ::close(fd);  // the daemon died: its socket file stays behind
  ASSERT_TRUE(std::filesystem::exists(path));
  EXPECT_TRUE(remove_stale_socket(path).ok());
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(StaleSocket, AbsentPathIsFine) {
  testing::TempTree tree;
  EXPECT_TRUE(remove_stale_socket(tree.path("admin.sock")).ok());
}

TEST(StaleSocket, RegularFileIsNotDeleted) {
  testing::TempTree tree;
  auto path = tree.make_file("admin.sock", "precious");
  auto removed = remove_stale_socket(path);
  ASSERT_FALSE(removed.ok());
  EXPECT_EQ(removed.error().code, EEXIST);
  EXPECT_TRUE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace nb::service
