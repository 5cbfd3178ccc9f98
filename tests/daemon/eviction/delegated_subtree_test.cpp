// A delegated cgroup subtree (rootless container, user service) holds control files its user
// owns; numabalancerd, root without CAP_DAC_OVERRIDE, cannot write them, and says why.

#include <gtest/gtest.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "tests/daemon/eviction/request.hpp"

namespace nb::eviction {
namespace {

// The unit's situation: root's uid, CAP_DAC_OVERRIDE out of the effective set.
bool drop_dac_override() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (::syscall(SYS_capget, &header, data) != 0) {
    return false;
  }
  data[0].effective &= ~(1u << CAP_DAC_OVERRIDE);
  return ::syscall(SYS_capset, &header, data) == 0;
}

// Evicts in a child that lacks CAP_DAC_OVERRIDE and returns the failure's message.
std::string denied_message(const std::string& name, const std::string& control_file) {
  testing::TempTree tree;
  auto file = tree.make_file("cg/pods/a/" + control_file, "0");
  // A user's file, as systemd and rootless runtimes delegate it; when the test is not root,
  // its own read-only file stands in.
  if (::geteuid() == 0) {
    EXPECT_EQ(::chown(file.c_str(), 1000, 1000), 0);
    EXPECT_EQ(::chmod(file.c_str(), 0644), 0);
  } else {
    EXPECT_EQ(::chmod(file.c_str(), 0444), 0);
  }
  int pipe_fds[2];
  EXPECT_EQ(::pipe(pipe_fds), 0);
  pid_t child = ::fork();
  if (child == 0) {
    ::close(pipe_fds[0]);
    std::string message = "could not drop CAP_DAC_OVERRIDE";
    if (::geteuid() != 0 || drop_dac_override()) {
      auto result = evict(action(name), request_for(tree));
      message = result.ok() ? "written" : result.error().message();
    }
    (void)!::write(pipe_fds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  std::string message;
  char buffer[1024];
  for (ssize_t got; (got = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) {
    message.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_fds[0]);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(testing::read_file(file), "0");
  return message;
}

TEST(DelegatedSubtree, FreezeNamesTheDelegatedSubtreeAndTheMissingCapability) {
  auto message = denied_message("freeze", "cgroup.freeze");
  EXPECT_NE(message.find("cgroup.freeze"), std::string::npos) << message;
  EXPECT_NE(message.find("delegated cgroup subtree"), std::string::npos) << message;
  EXPECT_NE(message.find("CAP_DAC_OVERRIDE"), std::string::npos) << message;
  EXPECT_NE(message.find("Permission denied"), std::string::npos) << message;
}

TEST(DelegatedSubtree, KillNamesTheDelegatedSubtreeAndTheMissingCapability) {
  auto message = denied_message("kill", "cgroup.kill");
  EXPECT_NE(message.find("cgroup.kill"), std::string::npos) << message;
  EXPECT_NE(message.find("delegated cgroup subtree"), std::string::npos) << message;
  EXPECT_NE(message.find("CAP_DAC_OVERRIDE"), std::string::npos) << message;
}

// A root-owned file that cannot be opened is not blamed on delegation.
TEST(DelegatedSubtree, AMissingFileIsNotCalledDelegated) {
  testing::TempTree tree;
  tree.make_dir("cg/pods/a");
  auto result = evict(action("freeze"), request_for(tree));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message().find("delegated"), std::string::npos);
}

}  // namespace
}  // namespace nb::eviction
