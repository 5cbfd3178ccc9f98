// A manual move without root stays inside the configured pools; root may move anything beneath
// the memory cgroup root, and nobody anything outside it.

#include "daemon/service/manual_migration_scope.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

using ::testing::HasSubstr;

std::vector<config::PoolConfig> pools() {
  return {config::PoolConfig{"web", {"system.slice/*.service"}, std::nullopt},
          config::PoolConfig{"batch", {"batch.slice/**"}, std::nullopt}};
}

TEST(ManualMigrationScope, CgroupIsInAPoolWhenItOrAnAncestorMatches) {
  EXPECT_TRUE(in_pools("system.slice/nginx.service", pools()));
  EXPECT_TRUE(in_pools("system.slice/nginx.service/worker", pools()));
  EXPECT_TRUE(in_pools("batch.slice/job/step", pools()));
  EXPECT_FALSE(in_pools("system.slice", pools()));
  EXPECT_FALSE(in_pools("init.scope", pools()));
  EXPECT_FALSE(in_pools("", pools()));
}

TEST(ManualMigrationScope, ProcessCgroupComesFromTheMemoryHierarchy) {
  testing::TempTree proc;
  proc.make_file("10/cgroup", "0::/system.slice/nginx.service\n");
  proc.make_file("11/cgroup",
                 "4:cpu,cpuacct:/elsewhere\n3:cpuacct,memory:/batch.slice/a:b\n"
                 "0::/init.scope\n");
  proc.make_file("12/cgroup", "1:name=systemd:/x\n");
  EXPECT_EQ(memory_cgroup_of(10, proc.root()).value(), "system.slice/nginx.service");
  EXPECT_EQ(memory_cgroup_of(11, proc.root()).value(), "batch.slice/a:b");
  EXPECT_FALSE(memory_cgroup_of(12, proc.root()).ok());
  EXPECT_FALSE(memory_cgroup_of(13, proc.root()).ok());
}

TEST(ManualMigrationScope, ProcessOutsideThePoolsIsRootsAlone) {
  testing::TempTree proc;
  proc.make_file("1/cgroup", "0::/init.scope\n");
  proc.make_file("10/cgroup", "0::/system.slice/nginx.service\n");
  auto pid_one = check_process_scope(1, pools(), proc.root(), false);
  ASSERT_FALSE(pid_one.ok());
  EXPECT_EQ(pid_one.error().problem, MigrationProblem::outside_pools);
  EXPECT_EQ(pid_one.error().detail,
            "process 1 (cgroup /init.scope) is outside the configured pools; only root may move "
            "it");
  EXPECT_TRUE(check_process_scope(1, pools(), proc.root(), true).ok());
  EXPECT_TRUE(check_process_scope(10, pools(), proc.root(), false).ok());
  auto unknown = check_process_scope(99, pools(), proc.root(), false);
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.error().detail, HasSubstr("only root may move it"));
}

TEST(ManualMigrationScope, CgroupIsConfinedThenScoped) {
  testing::TempTree tree;
  tree.make_dir("cg/system.slice/nginx.service");
  tree.make_dir("cg/init.scope");
  tree.make_dir("other");
  auto root = tree.path("cg");
  auto in_pool = resolve_cgroup_in_scope(root, "system.slice/nginx.service", pools(), false);
  ASSERT_TRUE(in_pool.ok()) << in_pool.error().detail;
  EXPECT_EQ(in_pool->dir, root / "system.slice/nginx.service");

  auto outside = resolve_cgroup_in_scope(root, "init.scope", pools(), false);
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.error().problem, MigrationProblem::outside_pools);
  EXPECT_EQ(outside.error().detail,
            "cgroup init.scope is outside the configured pools; only root may move it");
  EXPECT_EQ(resolve_cgroup_in_scope(root, root.string(), pools(), false).error().detail,
            "the root cgroup is outside the configured pools; only root may move it");
  EXPECT_TRUE(resolve_cgroup_in_scope(root, "init.scope", pools(), true).ok());

  // Root too stays beneath the memory cgroup root.
  auto up = resolve_cgroup_in_scope(root, "../other", pools(), true);
  ASSERT_FALSE(up.ok());
  EXPECT_EQ(up.error().problem, MigrationProblem::cgroup_refused);
  EXPECT_THAT(up.error().detail, HasSubstr("contains '..'"));
}

}  // namespace
}  // namespace nb::service
