#include "base/parse_units.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>

namespace nb {
namespace {

struct Unit {
  std::string_view name;
  std::int64_t factor;
};

constexpr std::array<Unit, 5> kSizeUnits{{
    {"TiB", 1024 * kGiB},
    {"GiB", kGiB},
    {"MiB", kMiB},
    {"KiB", kKiB},
    {"B", 1},
}};

constexpr std::array<Unit, 4> kDurationUnits{{
    {"h", 3'600'000},
    {"m", 60'000},
    {"s", 1'000},
    {"ms", 1},
}};

std::string lowercase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return lower;
}

// The binary unit an operator most likely meant by a decimal or misspelt one.
std::optional<std::string_view> binary_unit_for(std::string_view unit) {
  std::string lower = lowercase(unit);
  if (lower.empty()) {
    return std::nullopt;
  }
  switch (lower[0]) {
    case 'k':
      return "KiB";
    case 'm':
      return "MiB";
    case 'g':
      return "GiB";
    case 't':
      return "TiB";
    case 'b':
      return "B";
    default:
      return std::nullopt;
  }
}

bool is_decimal_unit(std::string_view unit) {
  std::string lower = lowercase(unit);
  return lower == "k" || lower == "kb" || lower == "m" || lower == "mb" || lower == "g" ||
         lower == "gb" || lower == "t" || lower == "tb";
}

// A whole number and the text after it, or the reason the text does not start with one.
struct Number {
  std::int64_t value = 0;
  std::string_view unit;
};

Result<Number> split_number(std::string_view text, std::string_view what) {
  auto fail = [&](std::string_view why) {
    return make_error(
        0, "invalid " + std::string(what) + " \"" + std::string(text) + "\": " + std::string(why));
  };
  if (text.empty()) {
    return fail("empty");
  }
  if (text.front() == '-') {
    return fail("must not be negative");
  }
  Number number;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number.value);
  if (error == std::errc::result_out_of_range) {
    return fail("too large");
  }
  if (error != std::errc{}) {
    return fail("expected a whole number followed by a unit");
  }
  number.unit = text.substr(static_cast<std::size_t>(end - text.data()));
  if (!number.unit.empty() && number.unit.front() == '.') {
    return fail("must be a whole number; use a smaller unit");
  }
  return number;
}

Result<std::int64_t> scale(std::string_view text, std::string_view what, std::int64_t value,
                           std::int64_t factor) {
  if (value > std::numeric_limits<std::int64_t>::max() / factor) {
    return make_error(0,
                      "invalid " + std::string(what) + " \"" + std::string(text) + "\": too large");
  }
  return value * factor;
}

}  // namespace

Result<Bytes> checked_size(std::string_view text, Bytes bytes) {
  if (bytes > kMaxSize) {
    return make_error(
        0, "invalid size \"" + std::string(text) + "\": too large; the largest is " + kMaxSizeText);
  }
  return bytes;
}

Result<Bytes> parse_size(std::string_view text) {
  auto number = split_number(text, "size");
  if (!number) {
    return number.error();
  }
  if (number->unit.empty()) {
    return checked_size(text, number->value);
  }
  for (const Unit& unit : kSizeUnits) {
    if (number->unit == unit.name) {
      auto bytes = scale(text, "size", number->value, unit.factor);
      if (!bytes) {
        return bytes.error();
      }
      return checked_size(text, *bytes);
    }
  }
  std::string prefix = "invalid size \"" + std::string(text) + "\": ";
  std::string unit(number->unit);
  auto meant = binary_unit_for(unit);
  if (is_decimal_unit(unit)) {
    return make_error(0, prefix + "ambiguous unit \"" + unit + "\"; write " + std::string(*meant) +
                             " (decimal units are not accepted)");
  }
  if (meant && lowercase(unit) == lowercase(*meant)) {
    return make_error(
        0, prefix + "unknown unit \"" + unit + "\"; did you mean " + std::string(*meant) + "?");
  }
  return make_error(0, prefix + "unknown unit \"" + unit + "\"; expected B, KiB, MiB, GiB or TiB");
}

Result<Duration> parse_duration(std::string_view text) {
  auto number = split_number(text, "duration");
  if (!number) {
    return number.error();
  }
  std::string prefix = "invalid duration \"" + std::string(text) + "\": ";
  if (number->unit.empty()) {
    return make_error(0, prefix + "needs a unit: ms, s, m or h");
  }
  for (const Unit& unit : kDurationUnits) {
    if (number->unit == unit.name) {
      auto millis = scale(text, "duration", number->value, unit.factor);
      if (!millis) {
        return millis.error();
      }
      if (Duration(*millis) > kMaxDuration) {
        return make_error(0, prefix + "too large; the longest is " + kMaxDurationText);
      }
      return Duration(*millis);
    }
  }
  return make_error(
      0, prefix + "unknown unit \"" + std::string(number->unit) + "\"; expected ms, s, m or h");
}

std::string exact_size_text(Bytes bytes) {
  if (bytes != 0) {
    for (const Unit& unit : kSizeUnits) {
      if (bytes % unit.factor == 0) {
        return std::to_string(bytes / unit.factor) + std::string(unit.name);
      }
    }
  }
  return std::to_string(bytes) + "B";
}

std::string exact_duration_text(Duration duration) {
  auto millis = duration.count();
  if (millis == 0) {
    return "0s";
  }
  for (const Unit& unit : kDurationUnits) {
    if (millis % unit.factor == 0) {
      return std::to_string(millis / unit.factor) + std::string(unit.name);
    }
  }
  return std::to_string(millis) + "ms";
}

}  // namespace nb
