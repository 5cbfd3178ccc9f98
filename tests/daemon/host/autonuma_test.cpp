#include "daemon/host/autonuma.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

namespace nb::host {
namespace {

using nb::testing::TempTree;
using ::testing::HasSubstr;

struct SysctlCase {
  const char* content;  // nullptr: the file does not exist
  const char* warning;  // nullptr: no warning
};

class NumaBalancingWarning : public ::testing::TestWithParam<SysctlCase> {};

TEST_P(NumaBalancingWarning, WarnsOnlyWhenTheKernelMovesPages) {
  TempTree tree;
  tree.make_dir("proc/sys/kernel");
  if (GetParam().content != nullptr) {
    tree.make_file("proc/sys/kernel/numa_balancing", GetParam().content);
  }
  auto warning = numa_balancing_warning(tree.root());
  if (GetParam().warning == nullptr) {
    EXPECT_FALSE(warning.has_value()) << *warning;
  } else {
    ASSERT_TRUE(warning.has_value());
    EXPECT_THAT(*warning, HasSubstr(GetParam().warning));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sysctl, NumaBalancingWarning,
    ::testing::Values(SysctlCase{"0\n", nullptr}, SysctlCase{"1\n", "kernel.numa_balancing is 1"},
                      SysctlCase{"2\n", "kernel.numa_balancing is 2"},
                      SysctlCase{"3", "move them straight back"}, SysctlCase{nullptr, nullptr},
                      SysctlCase{"on\n", "cannot tell whether kernel NUMA balancing is on"},
                      SysctlCase{"", "cannot tell"}));

TEST(ReadNumaBalancing, ReadsTheModeUnderTheHostRoot) {
  TempTree tree;
  tree.make_file("proc/sys/kernel/numa_balancing", "2\n");
  auto mode = read_numa_balancing(tree.root());
  ASSERT_TRUE(mode.ok()) << mode.error().message();
  EXPECT_EQ(mode.value(), 2);
}

TEST(ReadNumaBalancing, MissingFileIsAVanishedError) {
  TempTree tree;
  auto mode = read_numa_balancing(tree.root());
  ASSERT_FALSE(mode.ok());
  EXPECT_TRUE(mode.error().vanished());
}

TEST(ReadNumaBalancing, GarbageNamesTheFile) {
  TempTree tree;
  tree.make_file("proc/sys/kernel/numa_balancing", "-1\n");
  auto mode = read_numa_balancing(tree.root());
  ASSERT_FALSE(mode.ok());
  EXPECT_THAT(mode.error().message(), HasSubstr("proc/sys/kernel/numa_balancing"));
}

}  // namespace
}  // namespace nb::host
