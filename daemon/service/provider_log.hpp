#pragma once
// Says in the journal when a metric's providers stop giving data, with their reason, and when
// they give data again: one line each, not one every round. Only that change counts, not a change
// of reason, because reasons carry numbers that move every round (a stale file's age); `status`
// and the snapshot's meta show the current one. The lines are FailureLog's, as for the exports.

#include "daemon/config/config.hpp"
#include "daemon/host/host_scan.hpp"
#include "daemon/service/export/failure_log.hpp"

namespace nb::service {

class ProviderLog {
 public:
  // After each scan, with the [metrics] it ran under; a metric set to "none" says nothing.
  void after_scan(const host::ScanReport& report, const config::MetricsConfig& config);

 private:
  FailureLog latency_{"read_latency provider"};
  FailureLog bandwidth_{"bandwidth provider"};
};

}  // namespace nb::service
