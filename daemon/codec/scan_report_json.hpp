#pragma once
// The scan report as the snapshot document's `meta` object: "host", "host_root", "cgroup",
// "metrics" (one object per metric) and "scan" (the counts). The one encoder of ScanReport; the
// document's reader carries `meta` without interpreting it, and `plan --explain` reads back only
// what the providers said.

#include <nlohmann/json.hpp>
#include <vector>

#include "daemon/host/host_scan.hpp"

namespace nb::codec {

nlohmann::json to_json(const host::ScanReport& report);

// The "metrics" part of a meta object written by to_json, as provider reports; a meta object
// from elsewhere (hand-written, or older) gives whatever of it has that shape, never an error.
std::vector<host::ProviderReport> provider_reports(const nlohmann::json& meta);

}  // namespace nb::codec
