#pragma once
// A reader for the Prometheus text exposition format (version 0.0.4): what node_exporter's
// textfile collector, Intel PCM's exporter and most hand-written exporters produce.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace nb::metrics {

struct PrometheusSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
  std::optional<std::int64_t> timestamp_ms;
};

// The sample's series as the format writes it, for messages: name{label="value",...}.
std::string series_name(const PrometheusSample& sample);

struct PrometheusText {
  std::map<std::string, std::string> types;  // metric family -> "counter", "gauge", ...
  std::vector<PrometheusSample> samples;

  // "counter", "gauge", ... from the TYPE line; "untyped" when there is none.
  std::string type_of(const std::string& family) const;
};

// Fails on the first malformed line with "line N: <problem>".
Result<PrometheusText> parse_prometheus_text(std::string_view text);

}  // namespace nb::metrics
