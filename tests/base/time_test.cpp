#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/time.hpp"

namespace nb {
namespace {

using namespace std::chrono;
using namespace std::chrono_literals;

const TimePoint kTen = sys_days{year{2026} / 12 / 2} + 10h;

TEST(Time, FormatsRfc3339Utc) {
  EXPECT_EQ(format_rfc3339(kTen), "2026-12-02T10:00:00Z");
  EXPECT_EQ(format_rfc3339(kTen + 1500ms), "2026-12-02T10:00:01.5Z");
  EXPECT_EQ(format_rfc3339(TimePoint{}), "1970-01-01T00:00:00Z");
}

struct TimeCase {
  const char* text;
  TimePoint expected;
};

class TimeParses : public ::testing::TestWithParam<TimeCase> {};

TEST_P(TimeParses, ToTheSameInstant) {
  auto parsed = parse_rfc3339(GetParam().text);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(*parsed, GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, TimeParses,
                         ::testing::Values(TimeCase{"2026-12-02T10:00:00Z", kTen},
                                           TimeCase{"2026-12-02t10:00:00z", kTen},
                                           TimeCase{"2026-12-02 10:00:00Z", kTen},
                                           TimeCase{"2026-12-02T12:30:00+02:30", kTen},
                                           TimeCase{"2026-12-02T09:00:00-01:00", kTen},
                                           TimeCase{"2026-12-02T10:00:00.250Z", kTen + 250ms},
                                           TimeCase{"2026-12-02T10:00:00.1z", kTen + 100ms},
                                           TimeCase{"2026-12-02T09:30:00-00:30", kTen},
                                           TimeCase{"1970-01-01T00:00:00Z", TimePoint{}},
                                           TimeCase{"2024-02-29T00:00:00Z",
                                                    sys_days{year{2024} / 2 / 29}}));

class TimeRejects : public ::testing::TestWithParam<const char*> {};

TEST_P(TimeRejects, SayingWhatIsExpected) {
  auto parsed = parse_rfc3339(GetParam());
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.error().message(), ::testing::HasSubstr("expected RFC 3339"));
}

INSTANTIATE_TEST_SUITE_P(Cases, TimeRejects,
                         ::testing::Values("", "2026-12-02", "2026-12-02T10:00:00",
                                           "2026-02-30T10:00:00Z", "2026-12-02T24:00:00Z",
                                           "2026-12-02T10:00:00.Z", "2026-12-02T10:00:00Zjunk",
                                           "2026-12-02T10:00:00+0200", "9999-12-31T23:59:59Z",
                                           "0001-01-01T00:00:00Z", "now", "2026-13-02T10:00:00Z",
                                           "2026-12-02T10:00:00+99:00"));

TEST(Time, MillisecondsForMessagesAlwaysHaveThreeDigits) {
  EXPECT_EQ(format_rfc3339_millis(kTen), "2026-12-02T10:00:00.000Z");
  EXPECT_EQ(format_rfc3339_millis(kTen + 250ms), "2026-12-02T10:00:00.250Z");
  EXPECT_EQ(format_rfc3339_millis(kTen + 1999999us), "2026-12-02T10:00:01.999Z");
}

TEST(Time, RoundTripsToTheNanosecond) {
  const TimePoint time = kTen + 123456789ns;
  auto parsed = parse_rfc3339(format_rfc3339(time));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, time);
}

}  // namespace
}  // namespace nb
