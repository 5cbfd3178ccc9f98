#include "daemon/eviction/registry.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/temp_tree.hpp"

namespace nb::eviction {
namespace {

using namespace std::chrono_literals;

config::EvictionConfig action(std::string name) {
  config::EvictionConfig config;
  config.action = std::move(name);
  return config;
}

EvictionRequest request_for(const testing::TempTree& tree, bool v2 = true) {
  return EvictionRequest{"pods/a", tree.path("cg/pods/a"), v2, 1, "node 1 under force pressure"};
}

TEST(Eviction, NoneOnlyReports) {
  testing::TempTree tree;
  tree.make_file("cg/pods/a/cgroup.freeze", "0");
  auto result = evict(action("none"), request_for(tree));
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->acted);
  EXPECT_EQ(testing::read_file(tree.path("cg/pods/a/cgroup.freeze")), "0");
}

struct ControlFileCase {
  const char* action;
  const char* file;
};

class WritesControlFile : public ::testing::TestWithParam<ControlFileCase> {};

TEST_P(WritesControlFile, OnCgroupV2) {
  testing::TempTree tree;
  tree.make_file(std::string("cg/pods/a/") + GetParam().file, "0");
  auto result = evict(action(GetParam().action), request_for(tree));
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_TRUE(result->acted);
  EXPECT_EQ(testing::read_file(tree.path(std::string("cg/pods/a/") + GetParam().file)), "1");
}

INSTANTIATE_TEST_SUITE_P(Actions, WritesControlFile,
                         ::testing::Values(ControlFileCase{"freeze", "cgroup.freeze"},
                                           ControlFileCase{"kill", "cgroup.kill"}),
                         [](const auto& info) { return std::string(info.param.action); });

TEST(Eviction, FreezeNeedsCgroupV2) {
  testing::TempTree tree;
  tree.make_file("cg/pods/a/cgroup.procs", "");
  auto result = evict(action("freeze"), request_for(tree, /*v2=*/false));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ENOTSUP);
}

TEST(Eviction, VanishedCgroupIsEnoent) {
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

TEST(Eviction, KillOnCgroupV1SignalsEveryProcessOfTheTree) {
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

TEST(Eviction, ExecRunsWithoutAShellAndPassesTheEnvironment) {
  testing::TempTree tree;
  auto out = tree.path("out");
  auto config = action("exec");
  // printenv is run directly: the argv is not a shell line, so "$X" would stay literal.
  config.exec = {"/bin/sh", "-c",
                 "printf '%s|%s|%s|%s' \"$NUMABALANCER_CGROUP\" \"$NUMABALANCER_NODE\" "
                 "\"$NUMABALANCER_REASON\" \"$1\" > " +
                     out.string(),
                 "argv0", "$NOT_EXPANDED"};
  auto result = evict(config, request_for(tree));
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_TRUE(result->acted);
  EXPECT_EQ(testing::read_file(out),
            tree.path("cg/pods/a").string() + "|1|node 1 under force pressure|$NOT_EXPANDED");
}

TEST(Eviction, ExecFailureIsReported) {
  auto config = action("exec");
  config.exec = {"false"};
  testing::TempTree tree;
  EXPECT_FALSE(evict(config, request_for(tree)).ok());
  config.exec = {"/no/such/program"};
  auto missing = evict(config, request_for(tree));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ENOENT);
}

TEST(Eviction, ExecOverItsTimeoutIsKilled) {
  auto config = action("exec");
  config.exec = {"sleep", "30"};
  config.timeout = 200ms;
  testing::TempTree tree;
  auto started = std::chrono::steady_clock::now();
  auto result = evict(config, request_for(tree));
  auto took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ETIMEDOUT);
  EXPECT_LT(took, 5s);
}

TEST(Eviction, UnknownActionIsRefused) {
  testing::TempTree tree;
  auto result = evict(action("explode"), request_for(tree));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, EINVAL);
}

}  // namespace
}  // namespace nb::eviction
