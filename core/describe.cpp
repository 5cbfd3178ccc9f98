#include "core/describe.hpp"

#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>

namespace nb::core {

std::string describe_number(double value) {
  std::array<char, 64> buffer{};
  auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                    std::chars_format::fixed, 3);
  if (error != std::errc{}) {
    return std::to_string(value);
  }
  std::string text(buffer.data(), end);
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

std::string describe_bytes(Bytes bytes) {
  struct Unit {
    Bytes size;
    const char* name;
  };
  static constexpr std::array<Unit, 4> units{{
      {1024 * kGiB, "TiB"},
      {kGiB, "GiB"},
      {kMiB, "MiB"},
      {kKiB, "KiB"},
  }};
  const Bytes magnitude = bytes < 0 ? -bytes : bytes;
  for (const Unit& unit : units) {
    if (magnitude >= unit.size) {
      const double scaled = static_cast<double>(bytes) / static_cast<double>(unit.size);
      // Two decimals are enough to tell caps apart; more would only add noise to the report.
      std::string text = describe_number(static_cast<double>(std::llround(scaled * 100)) / 100);
      return text + " " + unit.name;
    }
  }
  return std::to_string(bytes) + " B";
}

std::string describe_nodes(const std::vector<NodeId>& nodes) {
  if (nodes.empty()) {
    return "none";
  }
  std::string text;
  for (NodeId node : nodes) {
    if (!text.empty()) {
      text += ", ";
    }
    text += std::to_string(node);
  }
  return text;
}

std::string describe_node_set(const std::vector<NodeId>& nodes) {
  if (nodes.empty()) {
    return "no node";
  }
  return (nodes.size() == 1 ? "node " : "nodes ") + describe_nodes(nodes);
}

std::string describe_duration(Duration duration) {
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

std::string describe_age(Duration age) {
  // Whole seconds: an age to the millisecond reads as noise.
  const Duration whole = std::chrono::duration_cast<std::chrono::seconds>(age);
  if (whole < Duration::zero()) {
    return describe_duration(-whole) + " in the future";
  }
  return describe_duration(whole) + " ago";
}

}  // namespace nb::core
