// `exec` runs the configured argv without a shell, within its timeout.

#include <gtest/gtest.h>

#include "tests/daemon/eviction/request.hpp"

namespace nb::eviction {
namespace {

using namespace std::chrono_literals;

TEST(ExecAction, RunsWithoutAShellAndPassesTheEnvironment) {
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

TEST(ExecAction, FailureIsReported) {
  auto config = action("exec");
  config.exec = {"false"};
  testing::TempTree tree;
  EXPECT_FALSE(evict(config, request_for(tree)).ok());
  config.exec = {"/no/such/program"};
  auto missing = evict(config, request_for(tree));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ENOENT);
}

TEST(ExecAction, OverItsTimeoutIsKilled) {
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

}  // namespace
}  // namespace nb::eviction
