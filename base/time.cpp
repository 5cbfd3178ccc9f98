#include "base/time.hpp"

#include <chrono>
#include <cstdio>

namespace nb {
namespace {

using namespace std::chrono;

constexpr int kFirstYear = 1970;
constexpr int kLastYear = 2200;

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool number(int width, int& value) {
    if (position_ + static_cast<std::size_t>(width) > text_.size()) {
      return false;
    }
    value = 0;
    for (int i = 0; i < width; ++i) {
      const char c = text_[position_++];
      if (c < '0' || c > '9') {
        return false;
      }
      value = value * 10 + (c - '0');
    }
    return true;
  }
  bool literal(std::string_view accepted) {
    if (position_ < text_.size() && accepted.find(text_[position_]) != std::string_view::npos) {
      ++position_;
      return true;
    }
    return false;
  }
  bool digit_next() const {
    return position_ < text_.size() && text_[position_] >= '0' && text_[position_] <= '9';
  }
  char peek() const { return position_ < text_.size() ? text_[position_] : '\0'; }
  bool done() const { return position_ == text_.size(); }

 private:
  std::string_view text_;
  std::size_t position_ = 0;
};

// The digits after the decimal point, as far as nanoseconds reach; false when there are none.
bool fraction_of_second(Scanner& scan, nanoseconds& fraction) {
  long long scale = 100'000'000;
  int digits = 0;
  int digit = 0;
  while (scan.digit_next() && scan.number(1, digit)) {
    fraction += nanoseconds(digit * scale);
    scale /= 10;
    ++digits;
  }
  return digits > 0;
}

// "Z" or "+hh:mm" / "-hh:mm": what to subtract from the local time to get UTC.
bool utc_offset(Scanner& scan, minutes& offset) {
  if (scan.literal("Zz")) {
    return true;
  }
  const char sign = scan.peek();
  int offset_hours = 0, offset_minutes = 0;
  if (!scan.literal("+-") || !scan.number(2, offset_hours) || !scan.literal(":") ||
      !scan.number(2, offset_minutes) || offset_hours > 23 || offset_minutes > 59) {
    return false;
  }
  offset = hours(offset_hours) + minutes(offset_minutes);
  if (sign == '-') {
    offset = -offset;
  }
  return true;
}

struct Civil {
  year_month_day date;
  hh_mm_ss<nanoseconds> clock;
};

Civil civil(TimePoint time) {
  const auto day = floor<days>(time);
  return {year_month_day{day}, hh_mm_ss{floor<nanoseconds>(time - day)}};
}

std::string seconds_text(const Civil& at) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02d:%02d:%02d",
                static_cast<int>(at.date.year()), static_cast<unsigned>(at.date.month()),
                static_cast<unsigned>(at.date.day()), static_cast<int>(at.clock.hours().count()),
                static_cast<int>(at.clock.minutes().count()),
                static_cast<int>(at.clock.seconds().count()));
  return buffer;
}

}  // namespace

Result<TimePoint> parse_rfc3339(std::string_view text) {
  const auto invalid = [&](const char* why) {
    return make_error(0, "invalid time \"" + std::string(text) + "\": " + why +
                             " (expected RFC 3339, e.g. 2026-12-02T10:00:00Z)");
  };
  Scanner scan(text);
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!scan.number(4, year) || !scan.literal("-") || !scan.number(2, month) || !scan.literal("-") ||
      !scan.number(2, day) || !scan.literal("Tt ") || !scan.number(2, hour) || !scan.literal(":") ||
      !scan.number(2, minute) || !scan.literal(":") || !scan.number(2, second)) {
    return invalid("malformed");
  }
  const year_month_day date{std::chrono::year{year},
                            std::chrono::month{static_cast<unsigned>(month)},
                            std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok() || hour > 23 || minute > 59 || second > 59) {
    return invalid("no such date or time of day");
  }
  if (year < kFirstYear || year > kLastYear) {
    return invalid("year outside 1970-2200");
  }
  nanoseconds fraction{0};
  if (scan.literal(".") && !fraction_of_second(scan, fraction)) {
    return invalid("a fraction of a second needs digits");
  }
  minutes offset{0};
  if (!utc_offset(scan, offset)) {
    return invalid("needs Z or an offset such as +02:00");
  }
  if (!scan.done()) {
    return invalid("unexpected text after the time");
  }
  const auto local = sys_days{date} + hours(hour) + minutes(minute) + seconds(second) + fraction;
  return time_point_cast<TimePoint::duration>(local - offset);
}

std::string format_rfc3339(TimePoint time) {
  const Civil at = civil(time);
  std::string text = seconds_text(at);
  if (const auto fraction = at.clock.subseconds().count(); fraction != 0) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, ".%09lld", static_cast<long long>(fraction));
    std::string digits = buffer;
    while (digits.back() == '0') {
      digits.pop_back();
    }
    text += digits;
  }
  return text + "Z";
}

std::string format_rfc3339_millis(TimePoint time) {
  const Civil at = civil(floor<milliseconds>(time));
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, ".%03lld",
                static_cast<long long>(floor<milliseconds>(at.clock.subseconds()).count()));
  return seconds_text(at) + buffer + "Z";
}

}  // namespace nb
