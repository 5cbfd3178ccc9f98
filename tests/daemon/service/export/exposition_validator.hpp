#pragma once
// A strict reader of the Prometheus text exposition format (0.0.4), for tests: it returns every
// rule the text breaks, so an empty list means Prometheus and the node_exporter textfile
// collector will take it. Stricter than Prometheus where our exporter has no reason to differ:
// every family needs HELP and TYPE before its first sample, counters end in _total, and samples
// carry no timestamps (the textfile collector rejects them).

#include <string>
#include <string_view>
#include <vector>

namespace nb::testing {

std::vector<std::string> exposition_problems(std::string_view text);

}  // namespace nb::testing
