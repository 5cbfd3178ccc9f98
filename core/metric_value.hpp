#pragma once
// What a node's read latency or bandwidth may be, wherever it comes from: a snapshot file read by
// `numabalancerd plan` or a provider's reading on the live host. One rule in one wording, so that
// -95 ns is refused the same way offline and live. Zero passes here: a provider that cannot
// measure sometimes reports zeros, which the readers treat as "no measurement" rather than an
// error (readings.hpp, metrics::MetricSource).

#include <optional>
#include <string>

namespace nb::core {

// Why `value` cannot be a node's metric, worded to follow "<field>: " ("must not be negative, got
// -95", "must be a finite number, got NaN"); nullopt when it can.
std::optional<std::string> metric_value_problem(double value);

}  // namespace nb::core
