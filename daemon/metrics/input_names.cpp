#include "daemon/metrics/input_names.hpp"

#include <algorithm>
#include <string_view>

namespace nb::metrics {
namespace {

struct Spelling {
  Metric metric;
  std::string_view name;
  double scale;
};

constexpr Spelling kSpellings[] = {
    {Metric::read_latency, "numabalancer_node_read_latency_seconds", 1e9},
    {Metric::read_latency, "numabalancer_node_read_latency_ns", 1},
    {Metric::bandwidth, "numabalancer_node_bandwidth_bytes_per_second", 1e-9},
    {Metric::bandwidth, "numabalancer_node_bandwidth_gbps", 1},
};

const Spelling* find_spelling(Metric metric, std::string_view name) {
  auto found = std::find_if(
      std::begin(kSpellings), std::end(kSpellings),
      [&](const Spelling& spelling) { return spelling.metric == metric && spelling.name == name; });
  return found == std::end(kSpellings) ? nullptr : found;
}

bool has_series(const PrometheusText& text, std::string_view name) {
  return std::any_of(text.samples.begin(), text.samples.end(),
                     [&](const PrometheusSample& sample) { return sample.name == name; });
}

}  // namespace

InputName choose_input_name(const PrometheusText& text, Metric metric,
                            const std::string& configured) {
  const Spelling* chosen = find_spelling(metric, configured);
  if (chosen == nullptr) {
    return {configured, 1};
  }
  if (!has_series(text, configured)) {
    for (const Spelling& spelling : kSpellings) {
      if (spelling.metric == metric && has_series(text, spelling.name)) {
        chosen = &spelling;
        break;
      }
    }
  }
  return {std::string(chosen->name), chosen->scale};
}

std::string other_spellings(Metric metric, const std::string& configured) {
  if (find_spelling(metric, configured) == nullptr) {
    return "";
  }
  std::string names;
  for (const Spelling& spelling : kSpellings) {
    if (spelling.metric == metric && spelling.name != configured) {
      names += names.empty() ? "" : ", ";
      names += spelling.name;
    }
  }
  return names;
}

}  // namespace nb::metrics
