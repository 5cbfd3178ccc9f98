// `kill`: cgroup.kill on v2, SIGKILL on v1 to every process of the tree that is still in it.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "daemon/eviction/kill_action.hpp"
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

// A v1 memory hierarchy at cg/ holding pods/a, and the fake /proc/PID/cgroup of real children.
struct V1Tree {
  V1Tree() {
    tree.make_file("cg/cgroup.procs", "");
    tree.make_file("cg/pods/cgroup.procs", "");
  }
  void member(pid_t pid, const std::string& cgroup) {
    tree.make_file("proc/" + std::to_string(pid) + "/cgroup",
                   "7:cpuset:/\n4:memory:" + cgroup + "\n0::/\n");
  }
  Result<EvictionResult> kill() const {
    EvictionResult result;
    result.action = "kill";
    return make_kill_action_at(tree.path("proc"))->evict(request_for(tree, /*v2=*/false), result);
  }

  testing::TempTree tree;
};

bool killed(pid_t pid) {
  int status = 0;
  return ::waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

TEST(KillAction, KillOnCgroupV1SignalsEveryProcessOfTheTree) {
  V1Tree v1;
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
  v1.tree.make_file("cg/pods/a/cgroup.procs",
                    std::to_string(parent_member) + "\n" + std::to_string(gone) + "\n");
  v1.tree.make_file("cg/pods/a/worker/cgroup.procs", std::to_string(child_member) + "\n");
  v1.member(parent_member, "/pods/a");
  v1.member(child_member, "/pods/a/worker");

  auto result = v1.kill();
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(result->signalled, 2);
  EXPECT_EQ(result->vanished, 1);
  EXPECT_TRUE(killed(parent_member));
  EXPECT_TRUE(killed(child_member));
}

// cgroup.procs was read when the pid was a member's; by the signal it names a process elsewhere
// (the member exited and its pid was reused, or it was moved out). That process lives.
TEST(KillAction, KillOnCgroupV1SparesAListedPidWhoseProcessIsElsewhere) {
  V1Tree v1;
  pid_t member = spawn_sleeper();
  pid_t outsider = spawn_sleeper();
  ASSERT_GT(member, 0);
  ASSERT_GT(outsider, 0);
  v1.tree.make_file("cg/pods/a/cgroup.procs",
                    std::to_string(member) + "\n" + std::to_string(outsider) + "\n");
  v1.member(member, "/pods/a");
  v1.member(outsider, "/pods/ab");

  auto result = v1.kill();
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(result->signalled, 1);
  EXPECT_EQ(result->vanished, 1);
  EXPECT_TRUE(killed(member));
  EXPECT_EQ(::waitpid(outsider, nullptr, WNOHANG), 0) << "the outsider was signalled";
  ::kill(outsider, SIGKILL);
  ::waitpid(outsider, nullptr, 0);
}

}  // namespace
}  // namespace nb::eviction
