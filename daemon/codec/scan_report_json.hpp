#pragma once
// The scan report as the snapshot document's `meta` object: "host", "host_root", "cgroup",
// "metrics" (one object per metric) and "scan" (the counts). The one encoder of ScanReport; the
// document's reader carries `meta` without interpreting it, so there is no decoder.

#include <nlohmann/json.hpp>

#include "daemon/host/host_scan.hpp"

namespace nb::codec {

nlohmann::json to_json(const host::ScanReport& report);

}  // namespace nb::codec
