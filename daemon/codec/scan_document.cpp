#include "daemon/codec/scan_document.hpp"

#include <utility>

#include "daemon/codec/policy_overrides.hpp"
#include "daemon/codec/scan_report_json.hpp"

namespace nb::codec {

SnapshotDocument scan_document(const host::HostScan& scan, const core::PolicyConfig& policy,
                               core::History history) {
  SnapshotDocument document;
  document.snapshot = scan.snapshot;
  document.history = std::move(history);
  document.policy_overrides = policy_overrides_json(policy);
  document.meta = to_json(scan.report);
  return document;
}

}  // namespace nb::codec
