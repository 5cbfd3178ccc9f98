#include <gtest/gtest.h>

#include "actuator/batch_sizer.hpp"
#include "actuator/destination_picker.hpp"
#include "actuator/token_bucket.hpp"

namespace nb::actuator {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

struct SizerCase {
  const char* name;
  microseconds cost_per_page;
  std::int64_t expected;
};

class BatchSizerConverges : public ::testing::TestWithParam<SizerCase> {};

TEST_P(BatchSizerConverges, TowardCallTargetWithinBounds) {
  BatchSizer sizer(milliseconds(20));
  EXPECT_EQ(sizer.pages(), BatchSizer::kMinPages);
  for (int i = 0; i < 10; ++i) {
    sizer.record(sizer.pages(), GetParam().cost_per_page * sizer.pages());
  }
  EXPECT_EQ(sizer.pages(), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Costs, BatchSizerConverges,
                         ::testing::Values(SizerCase{"TenMicroseconds", microseconds(10), 2000},
                                           SizerCase{"OneMicrosecond", microseconds(1), 20000},
                                           SizerCase{"OneMillisecond", microseconds(1000), 64}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(BatchSizer, EachSizeAtMostDoublesTheLastCall) {
  // Pages already in place cost next to nothing; the sizer must not leap to millions of pages.
  BatchSizer sizer(milliseconds(20));
  sizer.record(64, microseconds(1));
  EXPECT_EQ(sizer.pages(), 128);
  sizer.record(128, microseconds(0));
  EXPECT_EQ(sizer.pages(), 256);
  for (int i = 0; i < 30; ++i) {
    sizer.record(sizer.pages(), microseconds(0));
  }
  EXPECT_EQ(sizer.pages(), BatchSizer::kMaxPages);
}

TEST(BatchSizer, OneSlowCallCountsByTheAverageAndTheSwing) {
  BatchSizer sizer(milliseconds(20));
  sizer.record(1000, microseconds(10) * 1000);  // 2000 pages fit
  sizer.record(1000, microseconds(30) * 1000);  // a slow call: average 20 us, deviation 5 us
  EXPECT_EQ(sizer.pages(), 667);                // 20 ms / (20 + 2 x 5) us
}

TEST(BatchSizer, SwingingCostsKeepTheSlowCallsNearTheTarget) {
  // Costs alternate between 10 and 30 us a page. Sized by the average alone, every slow call
  // would take 1.5 times the target.
  BatchSizer sizer(milliseconds(20));
  milliseconds longest{0};
  for (int call = 0; call < 40; ++call) {
    const auto cost = microseconds(call % 2 == 0 ? 10 : 30);
    const auto took = cost * sizer.pages();
    sizer.record(sizer.pages(), took);
    if (call >= 10) {
      longest = std::max(longest, std::chrono::duration_cast<milliseconds>(took));
    }
  }
  EXPECT_LE(longest, milliseconds(25));
  EXPECT_GE(longest, milliseconds(10)) << "the batches did not shrink to nothing";
}

TEST(TokenBucket, UnlimitedNeverDelays) {
  Clock::time_point start{};
  TokenBucket bucket(0, milliseconds(100), start);
  bucket.take(10 * kGiB, start);
  EXPECT_EQ(bucket.delay(start), Clock::duration::zero());
}

TEST(TokenBucket, DebtIsRepaidAtTheRate) {
  Clock::time_point start{};
  TokenBucket bucket(10, milliseconds(100), start);  // 10 MiB/s, 1 MiB burst
  EXPECT_EQ(bucket.delay(start), Clock::duration::zero());
  bucket.take(6 * kMiB, start);  // 1 MiB available, 5 MiB of debt: half a second
  auto wait = bucket.delay(start);
  EXPECT_NEAR(std::chrono::duration<double>(wait).count(), 0.5, 1e-6);
  EXPECT_GT(bucket.delay(start + milliseconds(499)), Clock::duration::zero());
  EXPECT_EQ(bucket.delay(start + milliseconds(500)), Clock::duration::zero());
}

TEST(TokenBucket, IdleTimeRefillsOnlyUpToTheBurst) {
  Clock::time_point start{};
  TokenBucket bucket(10, milliseconds(100), start);
  auto later = start + std::chrono::seconds(60);
  bucket.take(3 * kMiB, later);  // 1 MiB burst, not 600 MiB saved up
  EXPECT_NEAR(std::chrono::duration<double>(bucket.delay(later)).count(), 0.2, 1e-6);
}

TEST(DestinationFloor, IsOneGibibyteOrTwoPercent) {
  EXPECT_EQ(default_min_free_bytes(8 * kGiB), kGiB);
  EXPECT_EQ(default_min_free_bytes(100 * kGiB), 2 * kGiB);
}

}  // namespace
}  // namespace nb::actuator
