#include "daemon/host/scan_document.hpp"

#include <utility>

#include "daemon/codec/policy_overrides.hpp"
#include "daemon/host/scan_report_json.hpp"

namespace nb::host {

codec::SnapshotDocument scan_document(const HostScan& scan, const core::PolicyConfig& policy,
                                      core::History history) {
  codec::SnapshotDocument document;
  document.snapshot = scan.snapshot;
  document.history = std::move(history);
  document.policy_overrides = codec::policy_overrides_json(policy);
  document.meta = to_json(scan.report);
  return document;
}

}  // namespace nb::host
