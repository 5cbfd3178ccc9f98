#pragma once
// One reading of the live host as a typed HostScan: topology, pools, containers with their
// anon bytes per node, and the metrics. The daemon calls scan() every round; `numabalancerd
// snapshot` calls it once. Every path is read under the host root ("/" in production).
//
// The scan report says how the reading went: host name, cgroup mode and how its
// mounts were found, which provider answered each metric or why none did, and the scan counts
// (cgroups seen, containers, cgroups that vanished mid-scan, ones skipped and why). A cgroup
// that vanishes mid-scan is skipped and counted; so is one matched by two pools, or whose
// numa_stat cannot be read. Only the topology and the cgroup mounts failing fails the scan.

#include <filesystem>
#include <memory>
#include <string>

#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/config/config.hpp"
#include "daemon/host/host_scan.hpp"
#include "daemon/metrics/source.hpp"

namespace nb::host {

class HostScanner {
 public:
  HostScanner(std::filesystem::path host_root, const config::Config& config);
  ~HostScanner();
  HostScanner(const HostScanner&) = delete;
  HostScanner& operator=(const HostScanner&) = delete;

  nb::Result<HostScan> scan(TimePoint now);

 private:
  void open_metric_sources(const std::vector<core::Node>& topology);

  std::filesystem::path host_root_;
  config::Config config_;
  // Made on the first scan, when the topology is known, and kept: a provider settles on its
  // source once (see metrics::MetricSource) and samplers keep running between rounds.
  std::unique_ptr<metrics::MetricSource> latency_;
  std::unique_ptr<metrics::MetricSource> bandwidth_;
  std::string numa_stat_buffer_;  // reused across cgroups and rounds
  std::string relative_path_;
};

}  // namespace nb::host
