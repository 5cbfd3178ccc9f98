// `none` reports and touches nothing.

#include <gtest/gtest.h>

#include "tests/daemon/eviction/request.hpp"

namespace nb::eviction {
namespace {

TEST(NoneAction, NoneOnlyReports) {
  testing::TempTree tree;
  tree.make_file("cg/pods/a/cgroup.freeze", "0");
  auto result = evict(action("none"), request_for(tree));
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->acted);
  EXPECT_EQ(testing::read_file(tree.path("cg/pods/a/cgroup.freeze")), "0");
}

}  // namespace
}  // namespace nb::eviction
