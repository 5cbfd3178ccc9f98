#include "core/metric_value.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace nb::core {
namespace {

// The value as a person or an exporter would write it: the shortest exact decimal, and NaN and
// infinities in the spelling of the Prometheus text format.
std::string shown(double value) {
  if (std::isnan(value)) {
    return "NaN";
  }
  if (std::isinf(value)) {
    return value > 0 ? "+Inf" : "-Inf";
  }
  std::array<char, 32> buffer{};
  auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return error == std::errc{} ? std::string(buffer.data(), end) : std::to_string(value);
}

}  // namespace

std::optional<std::string> metric_value_problem(double value) {
  if (!std::isfinite(value)) {
    return "must be a finite number, got " + shown(value);
  }
  if (value < 0) {
    return "must not be negative, got " + shown(value);
  }
  return std::nullopt;
}

}  // namespace nb::core
