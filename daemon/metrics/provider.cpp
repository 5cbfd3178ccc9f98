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

std::string_view to_string(LatencyKind kind) {
  switch (kind) {
    case LatencyKind::memory_controller_queue:
      return "memory_controller_queue";
    case LatencyKind::cache_miss:
      return "cache_miss";
    case LatencyKind::load_to_use:
      return "load_to_use";
    case LatencyKind::external:
      return "external";
  }
  return "unknown";
}

}  // namespace nb::metrics
