#include "daemon/metrics/provider.hpp"

#include "base/enum_names.hpp"

namespace nb::metrics {

namespace {

constexpr EnumName<Metric> kMetricNames[] = {{Metric::read_latency, "read_latency"},
                                             {Metric::bandwidth, "bandwidth"}};
static_assert(names_every_value(kMetricNames));

}  // namespace

std::string_view to_string(Metric metric) {
  return name_of(kMetricNames, metric);
}

std::string_view field_name(Metric metric) {
  return metric == Metric::read_latency ? "read_latency_ns" : "bandwidth_gbps";
}

}  // namespace nb::metrics
