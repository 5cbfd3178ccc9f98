#include "base/parse_units.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace nb {
namespace {

using namespace std::chrono_literals;

struct SizeCase {
  std::string text;
  Bytes bytes;
};

class ParseSizeAccepts : public ::testing::TestWithParam<SizeCase> {};

TEST_P(ParseSizeAccepts, GivesTheBytes) {
  auto parsed = parse_size(GetParam().text);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(*parsed, GetParam().bytes);
}

INSTANTIATE_TEST_SUITE_P(Units, ParseSizeAccepts,
                         ::testing::Values(SizeCase{"512MiB", 512 * kMiB},
                                           SizeCase{"12GiB", 12 * kGiB},
                                           SizeCase{"64KiB", 64 * kKiB},
                                           SizeCase{"1TiB", 1024 * kGiB}, SizeCase{"4096B", 4096},
                                           SizeCase{"4096", 4096}, SizeCase{"0", 0},
                                           SizeCase{"0MiB", 0}, SizeCase{"1536MiB", 1536 * kMiB},
                                           SizeCase{"1125899906842624", kMaxSize},
                                           SizeCase{"1024TiB", Bytes{1024} * 1024 * kGiB}));

struct ErrorCase {
  std::string text;
  std::string message;
};

class ParseSizeRejects : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ParseSizeRejects, WithAnErrorNamingTheText) {
  auto parsed = parse_size(GetParam().text);
  ASSERT_FALSE(parsed.ok()) << GetParam().text << " gave " << *parsed;
  EXPECT_EQ(parsed.error().message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Garbage, ParseSizeRejects,
    ::testing::Values(
        ErrorCase{"", R"(invalid size "": empty)"},
        ErrorCase{"-1MiB", R"(invalid size "-1MiB": must not be negative)"},
        ErrorCase{"-5", R"(invalid size "-5": must not be negative)"},
        ErrorCase{"MiB", R"(invalid size "MiB": expected a whole number followed by a unit)"},
        ErrorCase{"+5MiB", R"(invalid size "+5MiB": expected a whole number followed by a unit)"},
        ErrorCase{" 5MiB", R"(invalid size " 5MiB": expected a whole number followed by a unit)"},
        ErrorCase{"1.5GiB", R"(invalid size "1.5GiB": must be a whole number; use a smaller unit)"},
        ErrorCase{"8388608TiB", R"(invalid size "8388608TiB": too large)"},
        ErrorCase{"1025TiB",
                  R"(invalid size "1025TiB": too large; the largest is 1 PiB (1024TiB))"},
        ErrorCase{"8388607TiB",
                  R"(invalid size "8388607TiB": too large; the largest is 1 PiB (1024TiB))"},
        ErrorCase{"1125899906842625",
                  R"(invalid size "1125899906842625": too large; the largest is 1 PiB (1024TiB))"},
        ErrorCase{
            "9223372036854775807",
            R"(invalid size "9223372036854775807": too large; the largest is 1 PiB (1024TiB))"},
        ErrorCase{"9223372036854775808", R"(invalid size "9223372036854775808": too large)"},
        ErrorCase{"12XB",
                  R"(invalid size "12XB": unknown unit "XB"; expected B, KiB, MiB, GiB or TiB)"},
        ErrorCase{"5 MiB",
                  R"(invalid size "5 MiB": unknown unit " MiB"; expected B, KiB, MiB, GiB or TiB)"},
        ErrorCase{"12gib", R"(invalid size "12gib": unknown unit "gib"; did you mean GiB?)"},
        ErrorCase{"12MIB", R"(invalid size "12MIB": unknown unit "MIB"; did you mean MiB?)"}));

// Decimal and one-letter units are refused, not read as binary ones: 12GB is not 12GiB.
INSTANTIATE_TEST_SUITE_P(
    AmbiguousUnits, ParseSizeRejects,
    ::testing::Values(
        ErrorCase{
            "12GB",
            R"(invalid size "12GB": ambiguous unit "GB"; write GiB (decimal units are not accepted))"},
        ErrorCase{
            "512M",
            R"(invalid size "512M": ambiguous unit "M"; write MiB (decimal units are not accepted))"},
        ErrorCase{
            "64k",
            R"(invalid size "64k": ambiguous unit "k"; write KiB (decimal units are not accepted))"},
        ErrorCase{
            "64kB",
            R"(invalid size "64kB": ambiguous unit "kB"; write KiB (decimal units are not accepted))"},
        ErrorCase{
            "1TB",
            R"(invalid size "1TB": ambiguous unit "TB"; write TiB (decimal units are not accepted))"},
        ErrorCase{
            "1G",
            R"(invalid size "1G": ambiguous unit "G"; write GiB (decimal units are not accepted))"}));

struct DurationCase {
  std::string text;
  Duration duration;
};

class ParseDurationAccepts : public ::testing::TestWithParam<DurationCase> {};

TEST_P(ParseDurationAccepts, GivesTheDuration) {
  auto parsed = parse_duration(GetParam().text);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->count(), GetParam().duration.count());
}

INSTANTIATE_TEST_SUITE_P(Units, ParseDurationAccepts,
                         ::testing::Values(DurationCase{"500ms", 500ms}, DurationCase{"30s", 30s},
                                           DurationCase{"15m", 15min}, DurationCase{"1h", 1h},
                                           DurationCase{"0s", 0s}, DurationCase{"90s", 90s},
                                           DurationCase{"1500ms", 1500ms},
                                           DurationCase{"8784h", kMaxDuration}));

class ParseDurationRejects : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ParseDurationRejects, WithAnErrorNamingTheText) {
  auto parsed = parse_duration(GetParam().text);
  ASSERT_FALSE(parsed.ok()) << GetParam().text << " gave " << parsed->count() << "ms";
  EXPECT_EQ(parsed.error().message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Garbage, ParseDurationRejects,
    ::testing::Values(
        ErrorCase{"", R"(invalid duration "": empty)"},
        ErrorCase{"30", R"(invalid duration "30": needs a unit: ms, s, m or h)"},
        ErrorCase{"-5s", R"(invalid duration "-5s": must not be negative)"},
        ErrorCase{"s", R"(invalid duration "s": expected a whole number followed by a unit)"},
        ErrorCase{"1.5s", R"(invalid duration "1.5s": must be a whole number; use a smaller unit)"},
        ErrorCase{"30sec",
                  R"(invalid duration "30sec": unknown unit "sec"; expected ms, s, m or h)"},
        ErrorCase{"10us", R"(invalid duration "10us": unknown unit "us"; expected ms, s, m or h)"},
        ErrorCase{"8785h",
                  R"(invalid duration "8785h": too large; the longest is 366 days (8784h))"},
        ErrorCase{"3000000h",
                  R"(invalid duration "3000000h": too large; the longest is 366 days (8784h))"},
        ErrorCase{"1d", R"(invalid duration "1d": unknown unit "d"; expected ms, s, m or h)"},
        ErrorCase{"1h30m",
                  R"(invalid duration "1h30m": unknown unit "h30m"; expected ms, s, m or h)"},
        ErrorCase{"9223372036854775807h",
                  R"(invalid duration "9223372036854775807h": too large)"}));

struct FormatSizeCase {
  Bytes bytes;
  std::string text;
};

class FormatSize : public ::testing::TestWithParam<FormatSizeCase> {};

TEST_P(FormatSize, UsesTheLargestExactUnit) {
  EXPECT_EQ(exact_size_text(GetParam().bytes), GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(
    Table, FormatSize,
    ::testing::Values(FormatSizeCase{512 * kMiB, "512MiB"}, FormatSizeCase{12 * kGiB, "12GiB"},
                      FormatSizeCase{1536 * kMiB, "1536MiB"}, FormatSizeCase{2048 * kGiB, "2TiB"},
                      FormatSizeCase{64 * kKiB, "64KiB"}, FormatSizeCase{1000, "1000B"},
                      FormatSizeCase{0, "0B"}, FormatSizeCase{-kMiB, "-1MiB"}));

TEST(FormatSize, RoundTripsThroughParseSize) {
  for (Bytes bytes : {Bytes{0}, Bytes{1}, Bytes{4095}, 128 * kMiB, 15 * kGiB + kKiB, 3 * kGiB}) {
    auto parsed = parse_size(exact_size_text(bytes));
    ASSERT_TRUE(parsed.ok()) << exact_size_text(bytes);
    EXPECT_EQ(*parsed, bytes);
  }
}

struct FormatDurationCase {
  Duration duration;
  std::string text;
};

class FormatDuration : public ::testing::TestWithParam<FormatDurationCase> {};

TEST_P(FormatDuration, UsesTheLargestExactUnit) {
  EXPECT_EQ(exact_duration_text(GetParam().duration), GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(
    Table, FormatDuration,
    ::testing::Values(FormatDurationCase{1h, "1h"}, FormatDurationCase{15min, "15m"},
                      FormatDurationCase{90s, "90s"}, FormatDurationCase{1500ms, "1500ms"},
                      FormatDurationCase{20ms, "20ms"}, FormatDurationCase{0ms, "0s"}));

TEST(FormatDuration, RoundTripsThroughParseDuration) {
  for (Duration duration : {Duration{0}, Duration{1}, Duration{61'000}, Duration{7'200'000}}) {
    auto parsed = parse_duration(exact_duration_text(duration));
    ASSERT_TRUE(parsed.ok()) << exact_duration_text(duration);
    EXPECT_EQ(parsed->count(), duration.count());
  }
}

}  // namespace
}  // namespace nb
