#include "actuator/process_list.hpp"

#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

namespace nb::actuator {
namespace {

TEST(CgroupProcesses, IncludesEveryDescendantOnceInOrder) {
  nb::testing::TempTree tree;
  tree.make_file("pod/cgroup.procs", "30\n10\n");
  tree.make_file("pod/app/cgroup.procs", "20\n");
  tree.make_file("pod/app/worker/cgroup.procs", "40\n10\n");
  tree.make_file("pod/empty/cgroup.procs", "");
  auto pids = cgroup_processes(tree.path("pod"));
  ASSERT_TRUE(pids.ok()) << pids.error().message();
  EXPECT_EQ(*pids, (std::vector<int>{10, 20, 30, 40}));
}

TEST(CgroupProcesses, MissingCgroupIsNotFound) {
  nb::testing::TempTree tree;
  auto pids = cgroup_processes(tree.path("gone"));
  ASSERT_FALSE(pids.ok());
  EXPECT_EQ(pids.error().code, ENOENT);
  EXPECT_NE(pids.error().message().find("gone"), std::string::npos);
}

TEST(CgroupProcesses, GarbagePidIsAnError) {
  nb::testing::TempTree tree;
  tree.make_file("pod/cgroup.procs", "12\nabc\n");
  auto pids = cgroup_processes(tree.path("pod"));
  ASSERT_FALSE(pids.ok());
  EXPECT_NE(pids.error().message().find("abc"), std::string::npos);
}

TEST(CgroupProcesses, NonPositivePidInADescendantIsAnError) {
  nb::testing::TempTree tree;
  tree.make_file("pod/cgroup.procs", "12\n");
  tree.make_file("pod/app/cgroup.procs", "0\n");
  auto pids = cgroup_processes(tree.path("pod"));
  ASSERT_FALSE(pids.ok());
  EXPECT_EQ(pids.error().code, EINVAL);
  EXPECT_NE(pids.error().message().find("app/cgroup.procs"), std::string::npos);
}

}  // namespace
}  // namespace nb::actuator
