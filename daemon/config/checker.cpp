#include "daemon/config/checker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace nb::config {

std::string one_of_message(std::span<const std::string_view> allowed) {
  return fmt::format("must be one of {}", fmt::join(allowed, ", "));
}

bool is_one_of(std::string_view value, std::span<const std::string_view> allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

void Checker::fail(std::string key, std::string message) {
  problems_.push_back(ConfigProblem{std::move(key), std::move(message)});
}

// Doubles also arrive as nan and inf from TOML; neither is a usable threshold.
bool Checker::check(const std::string& key, double value, Bound bound) {
  switch (bound) {
    case Bound::positive:
      if (!std::isfinite(value) || value <= 0) {
        fail(key, "must be positive");
        return false;
      }
      break;
    case Bound::not_negative:
      if (!std::isfinite(value) || value < 0) {
        fail(key, "must not be negative");
        return false;
      }
      break;
    case Bound::ratio:
      if (!(value > 0 && value <= 1)) {
        fail(key, "must be in (0, 1]");
        return false;
      }
      break;
    case Bound::open_fraction:
      if (!(value > 0 && value < 1)) {
        fail(key, "must be in (0, 1)");
        return false;
      }
      break;
    case Bound::unlimited_if_zero:
      if (!rate_limit_in_range(value)) {
        fail(key, std::string("must be ") + kRateLimitRule);
        return false;
      }
      break;
    default:
      break;
  }
  return true;
}

bool Checker::check(const std::string& key, const std::map<NodeId, double>& values, Bound bound) {
  bool all_good = true;
  for (const auto& [node, value] : values) {
    all_good = check(fmt::format("{}.\"{}\"", key, node), value, bound) && all_good;
  }
  return all_good;
}

bool Checker::check(const std::string& key, int value, Bound bound) {
  if (bound == Bound::not_negative && value < 0) {
    fail(key, "must not be negative");
    return false;
  }
  if (bound == Bound::at_least_one && value < 1) {
    fail(key, "must be at least 1");
    return false;
  }
  if (bound == Bound::one_to_1024 && (value < 1 || value > 1024)) {
    fail(key, "must be from 1 to 1024");
    return false;
  }
  return true;
}

bool Checker::check(const std::string& key, unsigned value, Bound bound) {
  if (bound == Bound::file_mode && value > 0777) {
    fail(key, "must be at most \"0777\"");
    return false;
  }
  return true;
}

bool Checker::check(const std::string& key, Bytes value, Bound bound) {
  if (bound == Bound::positive && value <= 0) {
    fail(key, "must be positive");
    return false;
  }
  if (bound == Bound::not_negative && value < 0) {
    fail(key, "must not be negative");
    return false;
  }
  if (bound == Bound::kib_to_mib && (value < kKiB || value > kMiB)) {
    fail(key, "must be from 1KiB to 1MiB");
    return false;
  }
  return true;
}

// Unset ("auto") is always in range.
bool Checker::check(const std::string& key, const std::optional<Bytes>& value, Bound bound) {
  return !value || check(key, *value, bound);
}

bool Checker::check(const std::string& key, Duration value, Bound bound) {
  if (bound == Bound::positive && value.count() <= 0) {
    fail(key, "must be positive");
    return false;
  }
  if (bound == Bound::not_negative && value.count() < 0) {
    fail(key, "must not be negative");
    return false;
  }
  return true;
}

bool Checker::check(const std::string& key, const std::string& value, Bound bound) {
  bool absolute = !value.empty() && value.front() == '/';
  if ((bound == Bound::absolute_path && !absolute) ||
      (bound == Bound::absolute_path_or_empty && !value.empty() && !absolute)) {
    fail(key, "must be an absolute path");
    return false;
  }
  if (bound == Bound::not_empty && value.empty()) {
    fail(key, "must not be empty");
    return false;
  }
  return true;
}

void Checker::one_of(const std::string& key, std::string_view value,
                     std::span<const std::string_view> allowed) {
  if (!is_one_of(value, allowed)) {
    fail(key, one_of_message(allowed));
  }
}

}  // namespace nb::config
