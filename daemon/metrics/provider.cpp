#include "daemon/metrics/provider.hpp"

namespace nb::metrics {

std::string_view to_string(Metric metric) {
  switch (metric) {
    case Metric::read_latency:
      return "read_latency";
    case Metric::bandwidth:
      return "bandwidth";
  }
  return "unknown";
}

std::string_view field_name(Metric metric) {
  return metric == Metric::read_latency ? "read_latency_ns" : "bandwidth_gbps";
}

}  // namespace nb::metrics
