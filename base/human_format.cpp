#include "base/human_format.hpp"

#include <array>
#include <charconv>
#include <chrono>
#include <cmath>

namespace nb {
namespace {

std::string fixed(double value, int decimals) {
  std::array<char, 64> buffer{};
  auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                    std::chars_format::fixed, decimals);
  if (error != std::errc{}) {
    return std::to_string(value);
  }
  return std::string(buffer.data(), end);
}

std::string without_trailing_zeros(std::string text) {
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') {
      text.pop_back();
    }
    if (text.back() == '.') {
      text.pop_back();
    }
  }
  if (text == "-0") {
    text = "0";
  }
  return text;
}

}  // namespace

std::string format_number(double value) {
  return without_trailing_zeros(fixed(value, 3));
}

std::string format_bytes(double bytes, ByteDigits digits) {
  static constexpr std::array<const char*, 5> kUnits{"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  double value = bytes;
  while (std::abs(value) >= 1024 && unit + 1 < kUnits.size()) {
    value /= 1024;
    ++unit;
  }
  std::string text;
  if (unit == 0) {
    text = without_trailing_zeros(fixed(value, 0));
  } else if (digits == ByteDigits::one_fixed) {
    text = fixed(value, 1);
  } else if (digits == ByteDigits::two_fixed_from_gib) {
    text = fixed(value, unit >= 3 ? 2 : 1);
  } else {
    // Rounded half away from zero first, so that 1.125 reads 1.13 whatever its binary form.
    text = format_number(static_cast<double>(std::llround(value * 100)) / 100);
  }
  return text + " " + kUnits[unit];
}

std::string format_duration(Duration duration) {
  using namespace std::chrono;
  const auto count = duration.count();
  if (count != 0 && duration % hours(1) == Duration::zero()) {
    return std::to_string(duration_cast<hours>(duration).count()) + " h";
  }
  if (count != 0 && duration % minutes(1) == Duration::zero()) {
    return std::to_string(duration_cast<minutes>(duration).count()) + " min";
  }
  if (duration % seconds(1) == Duration::zero()) {
    return std::to_string(duration_cast<seconds>(duration).count()) + " s";
  }
  return std::to_string(count) + " ms";
}

std::string format_age(Duration age) {
  // Whole seconds: an age to the millisecond reads as noise.
  const Duration whole = std::chrono::duration_cast<std::chrono::seconds>(age);
  if (whole < Duration::zero()) {
    return format_duration(-whole) + " in the future";
  }
  return format_duration(whole) + " ago";
}

}  // namespace nb
