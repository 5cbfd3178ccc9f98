#include "daemon/metrics/timestamp.hpp"

#include <charconv>
#include <chrono>
#include <cstdio>

namespace nb::metrics {
namespace {

constexpr int kFirstYear = 1970;
constexpr int kLastYear = 2200;

// Reads exactly `digits` decimal digits at `pos`.
bool read_digits(std::string_view text, std::size_t pos, std::size_t digits, int& value) {
  if (pos + digits > text.size()) {
    return false;
  }
  value = 0;
  for (std::size_t i = pos; i < pos + digits; ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return false;
    }
    value = value * 10 + (text[i] - '0');
  }
  return true;
}

}  // namespace

std::optional<TimePoint> parse_rfc3339(std::string_view text) {
  using namespace std::chrono;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!read_digits(text, 0, 4, year) || text.size() < 20 || text[4] != '-' ||
      !read_digits(text, 5, 2, month) || text[7] != '-' || !read_digits(text, 8, 2, day) ||
      (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || !read_digits(text, 11, 2, hour) ||
      text[13] != ':' || !read_digits(text, 14, 2, minute) || text[16] != ':' ||
      !read_digits(text, 17, 2, second)) {
    return std::nullopt;
  }
  year_month_day date{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                      std::chrono::day{static_cast<unsigned>(day)}};
  // Outside these years the nanosecond clock overflows.
  if (!date.ok() || year < kFirstYear || year > kLastYear || hour > 23 || minute > 59 ||
      second > 60) {
    return std::nullopt;
  }
  std::size_t pos = 19;
  nanoseconds fraction{0};
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    std::int64_t scale = 100'000'000;
    std::size_t digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      fraction += nanoseconds((text[pos] - '0') * scale);
      scale /= 10;
      ++pos;
      ++digits;
    }
    if (digits == 0) {
      return std::nullopt;
    }
  }
  minutes offset{0};
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int offset_hours = 0, offset_minutes = 0;
    if (!read_digits(text, pos + 1, 2, offset_hours) || pos + 3 >= text.size() ||
        text[pos + 3] != ':' || !read_digits(text, pos + 4, 2, offset_minutes) ||
        offset_hours > 23 || offset_minutes > 59) {
      return std::nullopt;
    }
    offset = hours(offset_hours) + minutes(offset_minutes);
    if (text[pos] == '-') {
      offset = -offset;
    }
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) {
    return std::nullopt;
  }
  auto local = sys_days(date) + hours(hour) + minutes(minute) + seconds(second) + fraction;
  return time_point_cast<TimePoint::duration>(local - offset);
}

std::string format_rfc3339(TimePoint time) {
  using namespace std::chrono;
  auto millis = time_point_cast<milliseconds>(time);
  auto days = floor<std::chrono::days>(millis);
  year_month_day date{days};
  hh_mm_ss clock{millis - days};
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02ld:%02ld:%02ld.%03ldZ",
                static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()), static_cast<long>(clock.hours().count()),
                static_cast<long>(clock.minutes().count()),
                static_cast<long>(clock.seconds().count()),
                static_cast<long>(clock.subseconds().count()));
  return buffer;
}

}  // namespace nb::metrics
