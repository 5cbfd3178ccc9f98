// `freeze` writes cgroup.freeze, which only cgroup v2 has.

#include <gtest/gtest.h>

#include "tests/daemon/eviction/request.hpp"

namespace nb::eviction {
namespace {

TEST(FreezeAction, WritesCgroupFreezeOnCgroupV2) {
  testing::TempTree tree;
  tree.make_file("cg/pods/a/cgroup.freeze", "0");
  auto result = evict(action("freeze"), request_for(tree));
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_TRUE(result->acted);
  EXPECT_EQ(testing::read_file(tree.path("cg/pods/a/cgroup.freeze")), "1");
}

TEST(FreezeAction, FreezeNeedsCgroupV2) {
  testing::TempTree tree;
  tree.make_file("cg/pods/a/cgroup.procs", "");
  auto result = evict(action("freeze"), request_for(tree, /*v2=*/false));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ENOTSUP);
}

}  // namespace
}  // namespace nb::eviction
