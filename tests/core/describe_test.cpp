#include "core/describe.hpp"

#include <gtest/gtest.h>

namespace nb::core {
namespace {

using namespace std::chrono_literals;

TEST(Describe, NumbersDropTrailingZeros) {
  EXPECT_EQ(describe_number(72.000000001), "72");
  EXPECT_EQ(describe_number(109.25), "109.25");
  EXPECT_EQ(describe_number(0.625), "0.625");
  EXPECT_EQ(describe_number(-0.0001), "0");
}

TEST(Describe, BytesUseTheLargestBinaryUnit) {
  EXPECT_EQ(describe_bytes(512), "512 B");
  EXPECT_EQ(describe_bytes(128 * kMiB), "128 MiB");
  EXPECT_EQ(describe_bytes(3 * kGiB / 2), "1.5 GiB");
  EXPECT_EQ(describe_bytes(15 * kGiB), "15 GiB");
}

TEST(Describe, NodeListsAndDurations) {
  EXPECT_EQ(describe_nodes({}), "none");
  EXPECT_EQ(describe_nodes({1, 3}), "1, 3");
  EXPECT_EQ(describe_duration(15min), "15 min");
  EXPECT_EQ(describe_duration(30s), "30 s");
  EXPECT_EQ(describe_duration(250ms), "250 ms");
  EXPECT_EQ(describe_age(Duration(12'400)), "12 s ago");
  EXPECT_EQ(describe_age(-3s), "3 s in the future");
}

}  // namespace
}  // namespace nb::core
