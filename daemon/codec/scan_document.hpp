#pragma once
// A scan as the snapshot document `numabalancerd snapshot` prints and the admin `snapshot`
// command returns: the snapshot, the daemon's history, the effective [policy] as "config.policy"
// and the scan report as "meta". The one place a HostScan becomes a document.

#include "core/history.hpp"
#include "core/policy_config.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "daemon/host/host_scan.hpp"

namespace nb::codec {

SnapshotDocument scan_document(const host::HostScan& scan, const core::PolicyConfig& policy,
                               core::History history);

}  // namespace nb::codec
