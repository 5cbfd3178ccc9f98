#include "base/range_list.hpp"

#include <charconv>
#include <string>

namespace nb {
namespace {

// Far above any kernel's NR_CPUS: a bigger number is garbage, not a machine.
constexpr int kMaxCpu = (1 << 16) - 1;

std::string_view trimmed(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\r";
  const auto first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

bool parse_number(std::string_view text, int max_value, int& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc{} && end == text.data() + text.size() && value >= 0 &&
         value <= max_value;
}

}  // namespace

Result<std::vector<Range>> parse_range_list(std::string_view text, int max_value) {
  const std::string_view whole = trimmed(text);
  std::vector<Range> ranges;
  std::string_view rest = whole;
  bool more = !rest.empty();
  while (more) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    more = comma != std::string_view::npos;
    rest = more ? rest.substr(comma + 1) : std::string_view{};
    const auto dash = item.find('-');
    Range range;
    const bool ok = dash == std::string_view::npos
                        ? parse_number(item, max_value, range.first) &&
                              parse_number(item, max_value, range.last)
                        : parse_number(item.substr(0, dash), max_value, range.first) &&
                              parse_number(item.substr(dash + 1), max_value, range.last);
    if (!ok || range.last < range.first) {
      return make_error(
          0, "bad range \"" + std::string(item) + "\" in \"" + std::string(whole) + "\"");
    }
    ranges.push_back(range);
  }
  return ranges;
}

Result<std::set<int>> parse_cpu_list(std::string_view text) {
  auto ranges = parse_range_list(text, kMaxCpu);
  if (!ranges) {
    return make_error(0, "bad cpu list \"" + std::string(trimmed(text)) + "\"");
  }
  std::set<int> cpus;
  for (const Range& range : *ranges) {
    for (int cpu = range.first; cpu <= range.last; ++cpu) {
      cpus.insert(cpu);
    }
  }
  return cpus;
}

}  // namespace nb
