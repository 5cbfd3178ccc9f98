#pragma once
// The Prometheus names numabalancer exports its node readings under, in this release's base
// units and in the units of earlier releases (numabalancer_node_read_latency_ns,
// numabalancer_node_bandwidth_gbps). The `file` provider reads a node reading under either
// spelling of a name in this table, whichever the configured name is, and converts it to its own
// unit (ns, GB/s): a config or an exporter written for the earlier names keeps working.

#include <string>

#include "daemon/metrics/prometheus_text.hpp"
#include "daemon/metrics/provider.hpp"

namespace nb::metrics {

struct InputName {
  std::string name;
  double scale = 1;  // a gauge's value under this name times scale is in ns or GB/s
};

// The configured name when the text has a series of it; else another spelling of it that the
// text has; else the configured name (its series are missing). A name outside the table is taken
// as is, in ns or GB/s.
InputName choose_input_name(const PrometheusText& text, Metric metric,
                            const std::string& configured);

// The configured name's other spellings, for a reason that says none was found ("" if none).
std::string other_spellings(Metric metric, const std::string& configured);

}  // namespace nb::metrics
