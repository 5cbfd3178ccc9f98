#include "daemon/service/manual_migration.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>

namespace nb::service {
namespace {

TEST(ManualMigration, BudgetMustParseAndBePositive) {
  EXPECT_EQ(parse_budget("4MiB").value(), 4 * kMiB);
  EXPECT_EQ(parse_budget("0").error().problem, MigrationProblem::budget_not_positive);
  auto unreadable = parse_budget("lots");
  ASSERT_FALSE(unreadable);
  EXPECT_EQ(unreadable.error().problem, MigrationProblem::budget_unreadable);
  EXPECT_FALSE(unreadable.error().detail.empty());
}

TEST(ManualMigration, RateIsZeroForUnlimitedOrWithinItsBounds) {
  EXPECT_TRUE(check_rate(0));
  EXPECT_TRUE(check_rate(1));
  EXPECT_TRUE(check_rate(1048576));
  for (double rate : {-1.0, 1e-12, 0.5, 1048577.0, std::nan(""), HUGE_VAL}) {
    ASSERT_FALSE(check_rate(rate)) << rate;
    EXPECT_EQ(check_rate(rate).error().problem, MigrationProblem::rate_out_of_range) << rate;
  }
}

TEST(ManualMigration, ProcessMustBePositiveAndExist) {
  EXPECT_TRUE(check_process(::getpid(), "/proc"));
  EXPECT_EQ(check_process(0, "/proc").error().problem, MigrationProblem::pid_out_of_range);
  EXPECT_EQ(check_process(4194305, "/proc").error().problem, MigrationProblem::pid_out_of_range);
  EXPECT_EQ(check_process(::getpid(), "/nonexistent").error().problem,
            MigrationProblem::no_such_process);
}

TEST(ManualMigration, JobOptionsComeFromActuatorThenTheRequest) {
  config::ActuatorConfig actuator;
  actuator.rate_limit_mib_per_s = 64;
  actuator.move_shared = true;
  actuator.min_free_bytes = kGiB;
  auto base = job_options_from(actuator);
  EXPECT_EQ(base.rate_limit_mib_per_s, 64);
  EXPECT_TRUE(base.move_shared);
  EXPECT_EQ(base.min_free_bytes, std::optional<Bytes>(kGiB));
  EXPECT_EQ(base.budget, actuator::kUnlimitedBudget);

  ManualMigration request;
  request.pid = 7;
  request.from = 1;
  request.to = {0};
  request.max_bytes = kMiB;
  request.dry_run = true;
  auto options = job_options_for(request, base);
  EXPECT_EQ(options.source_node, 1);
  EXPECT_EQ(options.budget, kMiB);
  EXPECT_EQ(options.rate_limit_mib_per_s, 64);  // the request left it to [actuator]
  EXPECT_TRUE(options.dry_run);
}

TEST(ManualMigration, PageOrderComesFromActuatorUnlessTheRequestNamesOne) {
  config::ActuatorConfig actuator;
  actuator.page_order = "address";
  actuator.hotness_window = std::chrono::seconds(2);
  auto base = job_options_from(actuator);
  EXPECT_EQ(base.page_order, actuator::PageOrder::address);
  EXPECT_EQ(base.hotness_window, std::chrono::seconds(2));
  ManualMigration request;
  EXPECT_EQ(job_options_for(request, base).page_order, actuator::PageOrder::address);
  request.page_order = actuator::PageOrder::hot_first;
  EXPECT_EQ(job_options_for(request, base).page_order, actuator::PageOrder::hot_first);
  EXPECT_EQ(job_options_from(config::ActuatorConfig{}).page_order, actuator::PageOrder::automatic);
}

TEST(ManualMigration, TargetNamesThePidOrTheCgroup) {
  ManualMigration by_pid;
  by_pid.pid = 42;
  by_pid.to = {1, 2};
  auto process = target_of(by_pid, {});
  EXPECT_EQ(process.container_id, "pid 42");
  EXPECT_EQ(process.pid, std::optional<int>(42));
  EXPECT_EQ(process.dest_nodes, (std::vector<NodeId>{1, 2}));

  ManualMigration by_cgroup;
  by_cgroup.cgroup = "web";
  by_cgroup.to = {1};
  auto cgroup = target_of(by_cgroup, "/sys/fs/cgroup/web");
  EXPECT_EQ(cgroup.container_id, "web");
  EXPECT_EQ(cgroup.cgroup_dir, "/sys/fs/cgroup/web");
  EXPECT_FALSE(cgroup.pid.has_value());
}

}  // namespace
}  // namespace nb::service
