#include "actuator/damon_kdamonds.hpp"

#include <gtest/gtest.h>

#include "tests/actuator/fake_damon_sysfs.hpp"
#include "tests/support/temp_tree.hpp"

// Start-up's clean-up of kdamonds a crashed numabalancer left: only marked ones of a dead run.

namespace nb::actuator {
namespace {

using testing::FakeDamonSysfs;

constexpr int kOwnPid = 777;

class StaleKdamonds : public ::testing::Test {
 protected:
  Result<StaleCleanup> remove() { return remove_stale_kdamonds(damon, tree.path("proc"), kOwnPid); }

  nb::testing::TempTree tree;
  FakeDamonSysfs damon;
};

TEST_F(StaleKdamonds, ADeadRunsMarkedKdamondsAreTurnedOffAndRemoved) {
  damon.add_marked_kdamonds(3, 999, true);
  auto cleanup = remove();
  ASSERT_TRUE(cleanup.ok()) << cleanup.error().message();
  EXPECT_EQ(cleanup->removed, 3u);
  EXPECT_EQ(damon.nr_kdamonds(), 0u);
  EXPECT_EQ(damon.writes().back(), "kdamonds/nr_kdamonds 0");
}

TEST_F(StaleKdamonds, KdamondsMarkedWithOurOwnPidAreStaleAtStartUp) {
  tree.make_dir("proc/" + std::to_string(kOwnPid));
  damon.add_marked_kdamonds(1, kOwnPid, false);
  auto cleanup = remove();
  ASSERT_TRUE(cleanup.ok());
  EXPECT_EQ(cleanup->removed, 1u);
  EXPECT_EQ(damon.writes(), std::vector<std::string>{"kdamonds/nr_kdamonds 0"})
      << "an off kdamond is not turned off again";
}

TEST_F(StaleKdamonds, AnotherToolsKdamondsAreNeverTouched) {
  for (bool on : {true, false}) {
    FakeDamonSysfs foreign;
    foreign.add_foreign_kdamond(on);
    auto cleanup = remove_stale_kdamonds(foreign, tree.path("proc"), kOwnPid);
    ASSERT_TRUE(cleanup.ok());
    EXPECT_EQ(cleanup->removed, 0u);
    EXPECT_FALSE(cleanup->left_alone.empty());
    EXPECT_TRUE(foreign.writes().empty());
    EXPECT_EQ(foreign.nr_kdamonds(), 1u);
  }
}

TEST_F(StaleKdamonds, AListMixingOursAndAnothersIsLeftAlone) {
  damon.add_marked_kdamonds(2, 999, false);
  // The second entry loses its mark: it now holds another tool's scheme.
  damon.clear_writes();
  ASSERT_TRUE(damon.write(kdamond_mark_path(1), "0").ok());
  damon.clear_writes();
  auto cleanup = remove();
  ASSERT_TRUE(cleanup.ok());
  EXPECT_EQ(cleanup->removed, 0u);
  EXPECT_TRUE(damon.writes().empty());
  EXPECT_EQ(damon.nr_kdamonds(), 2u);
}

TEST_F(StaleKdamonds, ARunningNumabalancersKdamondsAreLeftAlone) {
  tree.make_dir("proc/999");
  damon.add_marked_kdamonds(1, 999, true);
  auto cleanup = remove();
  ASSERT_TRUE(cleanup.ok());
  EXPECT_EQ(cleanup->removed, 0u);
  EXPECT_NE(cleanup->left_alone.find("999"), std::string::npos);
  EXPECT_TRUE(damon.any_on());
}

TEST_F(StaleKdamonds, NothingToDoWithoutDamonOrWithAnEmptyList) {
  auto empty = remove();
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->removed, 0u);
  EXPECT_TRUE(empty->left_alone.empty());
  damon.remove_damon();
  EXPECT_TRUE(remove().ok());
  EXPECT_TRUE(damon.writes().empty());
}

TEST_F(StaleKdamonds, AFailureToRemoveIsAnErrorNamingTheFile) {
  damon.add_marked_kdamonds(1, 999, false);
  for (std::size_t i = 0; i < 3; ++i) {
    damon.fail_writes[i] = EIO;
  }
  auto cleanup = remove();
  ASSERT_FALSE(cleanup.ok());
  EXPECT_EQ(cleanup.error().code, EIO);
  EXPECT_NE(cleanup.error().message().find("nr_kdamonds"), std::string::npos);
}

}  // namespace
}  // namespace nb::actuator
