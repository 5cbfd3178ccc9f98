#include "daemon/service/provider_log.hpp"

namespace nb::service {
namespace {

void note(FailureLog& log, const host::ProviderReport* report, const std::string& choice) {
  if (report == nullptr || choice == "none") {
    return;
  }
  if (report->available) {
    log.note(Ok{});
  } else if (!log.current_error()) {
    log.note(make_error(0, report->reason));
  }
}

}  // namespace

void ProviderLog::after_scan(const host::ScanReport& report, const config::MetricsConfig& config) {
  note(latency_, report.provider(metrics::Metric::read_latency), config.latency);
  note(bandwidth_, report.provider(metrics::Metric::bandwidth), config.bandwidth);
}

}  // namespace nb::service
