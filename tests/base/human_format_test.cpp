#include "base/human_format.hpp"

#include <gtest/gtest.h>

namespace nb {
namespace {

using namespace std::chrono_literals;

TEST(FormatNumber, DropsTrailingZeros) {
  EXPECT_EQ(format_number(72.000000001), "72");
  EXPECT_EQ(format_number(109.25), "109.25");
  EXPECT_EQ(format_number(0.625), "0.625");
  EXPECT_EQ(format_number(-0.0001), "0");
}

TEST(FormatBytes, ProseUsesTheLargestBinaryUnitWithoutTrailingZeros) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(128 * kMiB), "128 MiB");
  EXPECT_EQ(format_bytes(3 * kGiB / 2), "1.5 GiB");
  EXPECT_EQ(format_bytes(15 * kGiB), "15 GiB");
  EXPECT_EQ(format_bytes(2048 * kGiB), "2 TiB");
  EXPECT_EQ(format_bytes(-3 * kMiB), "-3 MiB");
}

TEST(FormatBytes, ProseRoundsToTwoDecimalsHalfAwayFromZero) {
  // 1.125 GiB is exact in binary; a round-half-even formatter would print 1.12.
  EXPECT_EQ(format_bytes(9 * kGiB / 8), "1.13 GiB");
  EXPECT_EQ(format_bytes(1023), "1023 B");
  EXPECT_EQ(format_bytes(1024), "1 KiB");
}

TEST(FormatBytes, ColumnsKeepOneDigit) {
  EXPECT_EQ(format_bytes(512, ByteDigits::one_fixed), "512 B");
  EXPECT_EQ(format_bytes(30 * kMiB, ByteDigits::one_fixed), "30.0 MiB");
  EXPECT_EQ(format_bytes(3 * kGiB / 2, ByteDigits::one_fixed), "1.5 GiB");
  EXPECT_EQ(format_bytes(1.25 * kGiB, ByteDigits::one_fixed), "1.2 GiB");
}

TEST(FormatBytes, ProgressKeepsTwoDigitsFromGibUp) {
  EXPECT_EQ(format_bytes(512, ByteDigits::two_fixed_from_gib), "512 B");
  EXPECT_EQ(format_bytes(1536, ByteDigits::two_fixed_from_gib), "1.5 KiB");
  EXPECT_EQ(format_bytes(30 * kMiB, ByteDigits::two_fixed_from_gib), "30.0 MiB");
  EXPECT_EQ(format_bytes(1.25 * kGiB, ByteDigits::two_fixed_from_gib), "1.25 GiB");
  EXPECT_EQ(format_bytes(16 * kGiB, ByteDigits::two_fixed_from_gib), "16.00 GiB");
  EXPECT_EQ(format_bytes(2 * 1024 * kGiB, ByteDigits::two_fixed_from_gib), "2.00 TiB");
}

TEST(FormatDuration, UsesTheLargestWholeUnit) {
  EXPECT_EQ(format_duration(2h), "2 h");
  EXPECT_EQ(format_duration(15min), "15 min");
  EXPECT_EQ(format_duration(90s), "90 s");
  EXPECT_EQ(format_duration(30s), "30 s");
  EXPECT_EQ(format_duration(250ms), "250 ms");
  EXPECT_EQ(format_duration(0ms), "0 s");
}

TEST(FormatAge, WholeSecondsAgoOrInTheFuture) {
  EXPECT_EQ(format_age(Duration(12'400)), "12 s ago");
  EXPECT_EQ(format_age(-3s), "3 s in the future");
}

}  // namespace
}  // namespace nb
