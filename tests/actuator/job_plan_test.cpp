#include "actuator/job_plan.hpp"

#include <gtest/gtest.h>

#include "tests/actuator/job_fixture.hpp"

namespace nb::actuator {
namespace {

using testing::kPage;

class JobPlanning : public testing::JobFixture {
 protected:
  JobPlan plan(const std::vector<MigrationTarget>& targets) {
    return plan_job(targets, options.source_node, memory, tree.path("proc"));
  }
};

TEST_F(JobPlanning, CountsEachTargetsBytesOnTheSourceUpToItsCap) {
  add_process(100, 100);
  add_process(200, 300, 0, 0x40000000);
  add_process(300, 50, 1, 0x80000000);
  std::vector<MigrationTarget> targets{target(100), target(200), target(300, {2})};
  targets[1].max_bytes = 200 * kPage;
  auto job = plan(targets);
  ASSERT_EQ(job.targets.size(), 3u);
  EXPECT_EQ(job.targets[0].on_source, 100 * kPage);
  EXPECT_EQ(job.targets[0].cap, kUnlimitedBudget);
  EXPECT_EQ(job.targets[1].on_source, 300 * kPage);
  EXPECT_EQ(job.targets[1].cap, 200 * kPage);
  EXPECT_EQ(job.targets[2].on_source, 0);
  EXPECT_EQ(job.targets[2].target, &targets[2]);
  EXPECT_EQ(job.on_source(), 300 * kPage);
  EXPECT_TRUE(job.errors.empty());
}

TEST_F(JobPlanning, AProcessListedByTwoTargetsBelongsToTheFirst) {
  add_process(100, 100);
  add_process(200, 50, 0, 0x40000000);
  tree.make_file("cg/a/cgroup.procs", "100\n");
  tree.make_file("cg/b/cgroup.procs", "100\n200\n");
  MigrationTarget a;
  a.container_id = "a";
  a.cgroup_dir = tree.path("cg/a");
  MigrationTarget b = a;
  b.container_id = "b";
  b.cgroup_dir = tree.path("cg/b");
  auto job = plan({a, b});
  ASSERT_EQ(job.targets.size(), 2u);
  ASSERT_EQ(job.targets[0].processes.size(), 1u);
  EXPECT_EQ(job.targets[0].processes[0].pid, 100);
  ASSERT_EQ(job.targets[1].processes.size(), 1u);
  EXPECT_EQ(job.targets[1].processes[0].pid, 200);
  EXPECT_EQ(job.targets[1].on_source, 50 * kPage);
}

TEST_F(JobPlanning, AProcessGoneBeforeItsVmasAreReadIsVanishedNotAnError) {
  add_process(100, 10);
  auto job = plan({target(100), target(404)});
  EXPECT_EQ(job.vanished_pids, std::vector<int>{404});
  EXPECT_TRUE(job.errors.empty());
  EXPECT_TRUE(job.targets[1].processes.empty());
}

TEST_F(JobPlanning, AnUnreadableCgroupIsAnErrorNamingItsContainer) {
  MigrationTarget gone;
  gone.container_id = "gone";
  gone.cgroup_dir = tree.path("cg/gone");
  auto job = plan({gone});
  ASSERT_EQ(job.errors.size(), 1u);
  EXPECT_EQ(job.errors[0].container_id, "gone");
  EXPECT_EQ(job.errors[0].code, ENOENT);
  EXPECT_FALSE(job.errors[0].pid.has_value());
  EXPECT_EQ(job.on_source(), 0);
}

TEST(TargetPlan, AllowsOnlyItsTargetsDestinations) {
  MigrationTarget target;
  target.dest_nodes = {2, 1};
  TargetPlan plan;
  plan.target = &target;
  EXPECT_TRUE(plan.allows(1));
  EXPECT_TRUE(plan.allows(2));
  EXPECT_FALSE(plan.allows(0));
}

TEST(AllDestinations, ListsEachNodeOnceInFirstAppearanceOrder) {
  MigrationTarget first;
  first.dest_nodes = {2, 1};
  MigrationTarget second;
  second.dest_nodes = {1, 3, 2};
  EXPECT_EQ(all_destinations({first, second}), (std::vector<NodeId>{2, 1, 3}));
}

}  // namespace
}  // namespace nb::actuator
