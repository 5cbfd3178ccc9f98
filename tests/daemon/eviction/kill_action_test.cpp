// `kill`: cgroup.kill on v2, SIGKILL to every process of the tree on v1.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/daemon/eviction/request.hpp"

namespace nb::eviction {
namespace {

TEST(KillAction, WritesCgroupKillOnCgroupV2) {
  testing::TempTree tree;
  tree.make_file("cg/pods/a/cgroup.kill", "0");
  auto result = evict(action("kill"), request_for(tree));
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_TRUE(result->acted);
  EXPECT_EQ(testing::read_file(tree.path("cg/pods/a/cgroup.kill")), "1");
}

TEST(KillAction, VanishedCgroupIsEnoent) {
  testing::TempTree tree;
  auto result = evict(action("kill"), request_for(tree));
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.error().vanished());
}

pid_t spawn_sleeper() {
  pid_t child = ::fork();
  if (child == 0) {
    ::execlp("sleep", "sleep", "30", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return child;
}

TEST(KillAction, KillOnCgroupV1SignalsEveryProcessOfTheTree) {
  testing::TempTree tree;
  pid_t parent_member = spawn_sleeper();
  pid_t child_member = spawn_sleeper();
  ASSERT_GT(parent_member, 0);
  ASSERT_GT(child_member, 0);
  // A pid that no longer exists: counted as vanished, not an error.
  pid_t gone = ::fork();
  if (gone == 0) {
    ::_exit(0);
  }
  ::waitpid(gone, nullptr, 0);
  tree.make_file("cg/pods/a/cgroup.procs",
                 std::to_string(parent_member) + "\n" + std::to_string(gone) + "\n");
  tree.make_file("cg/pods/a/worker/cgroup.procs", std::to_string(child_member) + "\n");

  auto result = evict(action("kill"), request_for(tree, /*v2=*/false));
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(result->signalled, 2);
  EXPECT_EQ(result->vanished, 1);
  for (pid_t pid : {parent_member, child_member}) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
  }
}

}  // namespace
}  // namespace nb::eviction
