#include "base/option_checks.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace nb {
namespace {

std::string in_quotes(const std::string& text) {
  return "'" + text + "'";
}

CLI::Validator whole_number_from(long long lowest, const std::string& wanted) {
  return CLI::Validator(
      [lowest, wanted](std::string& text) -> std::string {
        long long value = 0;
        const char* end = text.data() + text.size();
        auto [stop, error] = std::from_chars(text.data(), end, value);
        if (error != std::errc() || stop != end || value < lowest) {
          return "must be " + wanted + ", got " + in_quotes(text);
        }
        return {};
      },
      "");
}

// A finite decimal above `lowest` (or at it, with `lowest_allowed`) and at most `highest`.
CLI::Validator decimal_within(double lowest, bool lowest_allowed, double highest,
                              const std::string& wanted) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        char* end = nullptr;
        double value = std::strtod(text.c_str(), &end);
        bool above = lowest_allowed ? value >= lowest : value > lowest;
        if (text.empty() || *end != '\0' || !std::isfinite(value) || !above || value > highest) {
          return "must be " + wanted + ", got " + in_quotes(text);
        }
        return {};
      },
      "");
}

}  // namespace

CLI::Validator positive_whole_number() {
  return whole_number_from(1, "a whole number greater than 0");
}

CLI::Validator node_number() {
  return whole_number_from(0, "a node number (0, 1, ...)");
}

CLI::Validator seconds_up_to_a_day() {
  return decimal_within(0, false, kLongestWaitSeconds,
                        "a number of seconds greater than 0 and at most " +
                            std::to_string(static_cast<long long>(kLongestWaitSeconds)));
}

CLI::Validator mib_per_second() {
  return decimal_within(0, true, std::numeric_limits<double>::max(),
                        "a rate in MiB/s, 0 (unlimited) or more");
}

}  // namespace nb
