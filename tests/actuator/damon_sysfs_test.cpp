#include "actuator/damon_sysfs.hpp"

#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

// The production seam on a real directory: a sysfs file takes one newline-terminated value.

namespace nb::actuator {
namespace {

TEST(LinuxDamonSysfs, WritesOneNewlineTerminatedValueAndReadsItBack) {
  nb::testing::TempTree tree;
  tree.make_file("admin/kdamonds/nr_kdamonds", "0\n");
  LinuxDamonSysfs sysfs(tree.path("admin"));
  ASSERT_TRUE(sysfs.write("kdamonds/nr_kdamonds", "2").ok());
  EXPECT_EQ(nb::testing::read_file(tree.path("admin/kdamonds/nr_kdamonds")), "2\n");
  auto number = read_number(sysfs, "kdamonds/nr_kdamonds");
  ASSERT_TRUE(number.ok());
  EXPECT_EQ(*number, 2u);
  EXPECT_TRUE(sysfs.exists(""));
  EXPECT_TRUE(sysfs.exists("kdamonds"));
  EXPECT_FALSE(sysfs.exists("kdamonds/0"));
}

TEST(LinuxDamonSysfs, AMissingFileIsENOENTNamingItsPath) {
  nb::testing::TempTree tree;
  tree.make_dir("admin");
  LinuxDamonSysfs sysfs(tree.path("admin"));
  auto read = sysfs.read("kdamonds/0/state");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code, ENOENT);
  EXPECT_NE(read.error().message().find(tree.path("admin/kdamonds/0/state").string()),
            std::string::npos);
  auto written = sysfs.write("kdamonds/0/state", "on");
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().code, ENOENT);
}

TEST(LinuxDamonSysfs, AFileHoldingNoNumberIsEINVAL) {
  nb::testing::TempTree tree;
  tree.make_file("admin/kdamonds/nr_kdamonds", "many\n");
  LinuxDamonSysfs sysfs(tree.path("admin"));
  auto number = read_number(sysfs, "kdamonds/nr_kdamonds");
  ASSERT_FALSE(number.ok());
  EXPECT_EQ(number.error().code, EINVAL);
  EXPECT_EQ(read_word(sysfs, "kdamonds/nr_kdamonds").value(), "many");
}

TEST(LinuxDamonSysfs, TheAdminDirectoryLiesUnderTheSysfsRoot) {
  EXPECT_EQ(damon_admin_root("/host/sys"), "/host/sys/kernel/mm/damon/admin");
}

}  // namespace
}  // namespace nb::actuator
