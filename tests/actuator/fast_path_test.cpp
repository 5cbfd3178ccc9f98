#include "actuator/page_mover.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/actuator/job_fixture.hpp"

// The fast path inside a job: when a whole footprint goes to migrate_pages in one call.

namespace nb::actuator {
namespace {

using testing::kBase;
using testing::kPage;

class JobFastPath : public testing::JobFixture {};

TEST_F(JobFastPath, FastPathHandsASmallWholeFootprintToMigratePages) {
  add_process(100, 256);
  options.fast_path_max_bytes = 16 * kMiB;
  auto report = run({target(100)});
  EXPECT_EQ(memory.migrate_calls, 1);
  EXPECT_EQ(memory.move_calls, 0);
  const auto& process = report.containers[0].processes[0];
  EXPECT_TRUE(process.fast_path);
  EXPECT_EQ(process.bytes_moved(), kMiB);
  EXPECT_EQ(memory.bytes_on(100, 1), kMiB);
  EXPECT_TRUE(report.threshold_met);
}

struct FastPathCase {
  const char* name;
  Bytes fast_path_max;
  Bytes budget;
  std::int64_t map_max;
  bool move_shared;
  Bytes dest_headroom;
  bool expect_fast_path;
};

// Without it gtest prints the struct's bytes, padding included (valgrind: uninitialised).
void PrintTo(const FastPathCase& c, std::ostream* os) {
  *os << c.name;
}

class FastPathChoice : public JobFastPath, public ::testing::WithParamInterface<FastPathCase> {};

TEST_P(FastPathChoice, UsesMigratePagesOnlyWhenEverythingFits) {
  const auto& param = GetParam();
  memory.add_node(1, 16 * kGiB, kGiB + param.dest_headroom);
  memory.add_vma(100, kBase, kBase + 256 * kPage).map_max = param.map_max;
  memory.add_pages(100, kBase, 256, 0);
  options.fast_path_max_bytes = param.fast_path_max;
  options.budget = param.budget;
  options.move_shared = param.move_shared;
  run({target(100)});
  EXPECT_EQ(memory.migrate_calls, param.expect_fast_path ? 1 : 0);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, FastPathChoice,
    ::testing::Values(
        FastPathCase{"Fits", 16 * kMiB, kGiB, 1, false, kGiB, true},
        FastPathCase{"Disabled", 0, kGiB, 1, false, kGiB, false},
        FastPathCase{"LargerThanFastPathLimit", 512 * kKiB, kGiB, 1, false, kGiB, false},
        FastPathCase{"LargerThanBudget", 16 * kMiB, 512 * kKiB, 1, false, kGiB, false},
        FastPathCase{"SharedPagesWithoutMoveShared", 16 * kMiB, kGiB, 2, false, kGiB, false},
        FastPathCase{"SharedPagesWithMoveShared", 16 * kMiB, kGiB, 2, true, kGiB, true},
        FastPathCase{"NoDestinationCanTakeIt", 16 * kMiB, kGiB, 1, false, 512 * kKiB, false}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(JobFastPath, FastPathEpermIsReportedWithCapabilityHint) {
  add_process(100, 16);
  options.fast_path_max_bytes = 16 * kMiB;
  memory.migrate_failure = EPERM;
  auto report = run({target(100)});
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].code, EPERM);
  EXPECT_NE(report.errors[0].hint.find("CAP_SYS_NICE"), std::string::npos);
  EXPECT_EQ(memory.move_calls, 0);
}

}  // namespace
}  // namespace nb::actuator
