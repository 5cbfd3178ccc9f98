#include "daemon/metrics/cpu_list.hpp"

#include <charconv>
#include <string>

#include "daemon/metrics/text_file.hpp"

namespace nb::metrics {
namespace {

// Far above any kernel's NR_CPUS: a bigger number is garbage, not a machine.
constexpr int kMaxCpus = 1 << 16;

bool parse_int(std::string_view text, int& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc{} && end == text.data() + text.size() && value >= 0;
}

}  // namespace

Result<std::set<int>> parse_cpu_list(std::string_view text) {
  std::set<int> cpus;
  std::string whole = trim(text);
  std::string_view rest = whole;
  bool more = !rest.empty();
  while (more) {
    auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    more = comma != std::string_view::npos;
    rest = more ? rest.substr(comma + 1) : std::string_view{};
    auto dash = item.find('-');
    int first = 0;
    int last = 0;
    bool ok = dash == std::string_view::npos ? parse_int(item, first) && parse_int(item, last)
                                             : parse_int(item.substr(0, dash), first) &&
                                                   parse_int(item.substr(dash + 1), last);
    if (!ok || last < first || last >= kMaxCpus) {
      return make_error(0, "bad cpu list \"" + whole + "\"");
    }
    for (int cpu = first; cpu <= last; ++cpu) {
      cpus.insert(cpu);
    }
  }
  return cpus;
}

Result<std::map<int, NodeId>> node_of_cpu(const std::vector<core::Node>& topology) {
  std::map<int, NodeId> owner;
  for (const auto& node : topology) {
    auto cpus = parse_cpu_list(node.cpus);
    if (!cpus) {
      return make_error(0, "node " + std::to_string(node.id) + ": " + cpus.error().context);
    }
    for (int cpu : *cpus) {
      owner[cpu] = node.id;
    }
  }
  return owner;
}

}  // namespace nb::metrics
