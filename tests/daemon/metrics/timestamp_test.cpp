#include "daemon/metrics/timestamp.hpp"

#include <gtest/gtest.h>

namespace nb::metrics {
namespace {

using std::chrono::milliseconds;

struct TimeCase {
  const char* text;
  std::int64_t unix_ms;
};

TEST(ParseRfc3339, ReadsUtcOffsetsAndFractions) {
  const TimeCase cases[] = {
      {"1970-01-01T00:00:00Z", 0},
      {"2026-12-02T15:04:05Z", 1796223845000},
      {"2026-12-02T15:04:05.250Z", 1796223845250},
      {"2026-12-02T16:04:05+01:00", 1796223845000},
      {"2026-12-02T14:34:05-00:30", 1796223845000},
      {"2026-12-02t15:04:05.1z", 1796223845100},
  };
  for (const auto& c : cases) {
    auto time = parse_rfc3339(c.text);
    ASSERT_TRUE(time.has_value()) << c.text;
    EXPECT_EQ(std::chrono::duration_cast<milliseconds>(time->time_since_epoch()).count(), c.unix_ms)
        << c.text;
  }
}

TEST(ParseRfc3339, RejectsGarbage) {
  for (const char* garbage :
       {"", "now", "2026-12-02", "2026-12-02T15:04:05", "2026-13-02T15:04:05Z",
        "2026-02-30T15:04:05Z", "2026-12-02T25:04:05Z", "2026-12-02T15:04:05.Z",
        "2026-12-02T15:04:05+0100", "2026-12-02T15:04:05Zjunk", "9999-12-31T23:59:59Z",
        "0001-01-01T00:00:00Z", "2026-12-02T15:04:05+99:00"}) {
    EXPECT_FALSE(parse_rfc3339(garbage).has_value()) << garbage;
  }
}

TEST(FormatRfc3339, RoundTripsThroughTheParser) {
  auto time = *parse_rfc3339("2026-12-02T15:04:05.250Z");
  EXPECT_EQ(format_rfc3339(time), "2026-12-02T15:04:05.250Z");
}

}  // namespace
}  // namespace nb::metrics
