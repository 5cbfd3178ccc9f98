#include "actuator/process_identity.hpp"

#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

// What /proc and the cgroup tree say about who a pid names, read from a fake tree.

namespace nb::actuator {
namespace {

TEST(CgroupName, IsThePathFromTheTopmostCgroupAboveIt) {
  struct Case {
    const char* name;
    std::vector<const char*> files;
    const char* dir;
    bool v2;
    const char* path;
  };
  const Case cases[] = {
      {"v2 container",
       {"cg/cgroup.procs", "cg/cgroup.controllers", "cg/pods/a/cgroup.procs",
        "cg/pods/a/cgroup.controllers", "cg/pods/cgroup.procs"},
       "cg/pods/a",
       true,
       "/pods/a"},
      {"v1 memory container",
       {"cg/cgroup.procs", "cg/pods/a/cgroup.procs", "cg/pods/cgroup.procs"},
       "cg/pods/a",
       false,
       "/pods/a"},
      {"the hierarchy's root", {"cg/cgroup.procs", "cg/cgroup.controllers"}, "cg", true, "/"},
      {"a trailing slash", {"cg/cgroup.procs", "cg/a/cgroup.procs"}, "cg/a/", false, "/a"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    nb::testing::TempTree tree;
    for (const char* file : c.files) {
      tree.make_file(file, "");
    }
    auto name = cgroup_name(tree.path(c.dir));
    ASSERT_TRUE(name.ok()) << name.error().message();
    EXPECT_EQ(name->v2, c.v2);
    EXPECT_EQ(name->path, c.path);
  }
}

TEST(CgroupName, ADirectoryThatIsNoCgroupIsNotFound) {
  nb::testing::TempTree tree;
  tree.make_dir("cg/a");
  auto name = cgroup_name(tree.path("cg/a"));
  ASSERT_FALSE(name.ok());
  EXPECT_TRUE(name.error().vanished());
}

TEST(ProcessStartTime, IsField22CountedAfterTheCommandName) {
  nb::testing::TempTree tree;
  tree.make_file("proc/7/stat",
                 "7 (a) b) (c) S 1 7 7 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 987654 1 2\n");
  auto start = process_start_time(tree.path("proc"), 7);
  ASSERT_TRUE(start.ok()) << start.error().message();
  EXPECT_EQ(*start, 987654u);
}

TEST(ProcessStartTime, AGoneProcessIsVanishedAndAShortStatAnError) {
  nb::testing::TempTree tree;
  auto gone = process_start_time(tree.path("proc"), 7);
  ASSERT_FALSE(gone.ok());
  EXPECT_TRUE(gone.error().vanished());
  tree.make_file("proc/7/stat", "7 (a) S 1 7 7 0 -1\n");
  auto short_stat = process_start_time(tree.path("proc"), 7);
  ASSERT_FALSE(short_stat.ok());
  EXPECT_EQ(short_stat.error().code, EINVAL);
}

TEST(ProcessCgroup, ReadsTheLineOfTheHierarchyAsked) {
  nb::testing::TempTree tree;
  tree.make_file("proc/7/cgroup",
                 "12:cpuset:/x\n5:cpu,cpuacct:/y\n4:memory,hugetlb:/pods/a\n0::/unified/z\n");
  EXPECT_EQ(process_cgroup(tree.path("proc"), 7, false).value(), "/pods/a");
  EXPECT_EQ(process_cgroup(tree.path("proc"), 7, true).value(), "/unified/z");
  tree.make_file("proc/8/cgroup", "0::/only/v2\n");
  auto missing = process_cgroup(tree.path("proc"), 8, false);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ENODATA);
  EXPECT_FALSE(missing.error().vanished());
}

TEST(CgroupWithin, MatchesWholePathComponents) {
  struct Case {
    const char* path;
    const char* ancestor;
    bool within;
  };
  const Case cases[] = {
      {"/pods/a", "/pods/a", true},   {"/pods/a/sidecar", "/pods/a", true},
      {"/pods/ab", "/pods/a", false}, {"/pods", "/pods/a", false},
      {"/anything", "/", true},       {"/", "/", true},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(cgroup_within(c.path, c.ancestor), c.within) << c.path << " in " << c.ancestor;
  }
}

}  // namespace
}  // namespace nb::actuator
