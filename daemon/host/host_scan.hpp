#pragma once
// One reading of the live host, typed: the snapshot the policy decides on and the report of how
// the reading went. The report becomes the snapshot document's `meta` object only at the edges
// (`numabalancerd snapshot`, the admin `snapshot` reply), through codec::to_json(ScanReport).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/snapshot.hpp"
#include "daemon/host/cgroup_layout.hpp"
#include "daemon/metrics/provider.hpp"

namespace nb::host {

// Which cgroup hierarchy the containers were found in, and how its mounts were found.
struct CgroupReport {
  CgroupMode mode = CgroupMode::v2;
  std::string discovery;
  std::filesystem::path memory_root;
  std::optional<std::filesystem::path> cpuset_root;
  std::optional<std::filesystem::path> unified_root;
};

// Which provider answered one metric, or why none did.
struct ProviderReport {
  metrics::Metric metric = metrics::Metric::read_latency;
  std::string provider;  // empty when none answered
  bool available = false;
  std::optional<metrics::LatencyKind> kind;
  // Unavailable: why. Available: why the providers tried before the one that answered did not.
  std::string reason;
};

// The scan's counts: a cgroup that vanished, could not be read or matched two pools is skipped
// and counted here rather than failing the scan.
struct ScanCounts {
  std::size_t cgroups_seen = 0;
  std::size_t containers = 0;
  std::size_t vanished = 0;
  std::size_t without_numa_stat = 0;  // the memory controller is not enabled for the cgroup
  std::size_t unreadable = 0;
  std::vector<std::string> errors;  // a few examples of the unreadable ones
  std::vector<std::string> pool_conflicts;
  std::vector<std::string> pool_errors;  // pools whose nodes could not be found
};

struct ScanReport {
  std::optional<std::string> host;  // the host name, when readable
  std::filesystem::path host_root;
  CgroupReport cgroup;
  std::vector<ProviderReport> providers;  // read_latency, then bandwidth
  ScanCounts counts;

  const ProviderReport* provider(metrics::Metric metric) const {
    for (const ProviderReport& report : providers) {
      if (report.metric == metric) {
        return &report;
      }
    }
    return nullptr;
  }
};

struct HostScan {
  core::Snapshot snapshot;
  ScanReport report;
};

}  // namespace nb::host
