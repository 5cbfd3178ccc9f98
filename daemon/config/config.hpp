#pragma once
// The whole configuration as plain structs. daemon/config/load.hpp turns TOML into these and
// validates them; every other module only reads them. Defaults here are the documented defaults
// (config.toml.example lists each with its unit and meaning).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "core/policy_config.hpp"

namespace nb::config {

using namespace std::chrono_literals;

struct DaemonConfig {
  Duration interval = 10s;
  // A round whose host scan takes longer fails with this as its reason; longer than the probe's
  // 30 s first round.
  Duration scan_timeout = 60s;
  bool dry_run = false;
  std::string log_level = "info";  // trace, debug, info, warn, error, critical, off
  std::string state_dir = "/var/lib/numabalancer";
  std::string lock_file = "/run/numabalancer/numabalancerd.lock";

  bool operator==(const DaemonConfig&) const = default;
};

struct AdminConfig {
  std::string socket = "/run/numabalancer/admin.sock";
  unsigned socket_mode = 0660;  // written in TOML as the string "0660"
  std::string admin_group = "numabalancer";
  int max_clients = 64;
  int max_watchers = 16;
  Bytes max_request_bytes = 64 * kKiB;
  Duration idle_timeout = 60s;

  bool operator==(const AdminConfig&) const = default;
};

// A pool: the cgroups that match its globs (relative to the cgroup root; ** crosses levels) and
// the nodes its containers may use. No nodes means "auto": derived from the cgroups' cpusets.
struct PoolConfig {
  std::string name;
  std::vector<std::string> cgroups;
  std::optional<std::vector<NodeId>> nodes;

  bool operator==(const PoolConfig&) const = default;
};

struct FileProviderConfig {
  std::string path;             // JSON document or Prometheus text exposition
  std::string format = "auto";  // auto, json, prometheus
  Duration max_age = 30s;       // older data is stale, so the metric is unavailable
  std::string latency_metric = "numabalancer_node_read_latency_seconds";
  std::string bandwidth_metric = "numabalancer_node_bandwidth_bytes_per_second";

  bool operator==(const FileProviderConfig&) const = default;
};

struct ProbeProviderConfig {
  Bytes buffer_bytes = 64 * kMiB;  // per node; larger than the LLC so loads reach memory
  int loads_per_sample = 512;      // dependent loads in one pointer chase
  Duration sample_interval = 1s;
  double cpu_budget = 0.005;  // fraction of one core per node the probe may use

  bool operator==(const ProbeProviderConfig&) const = default;
};

struct PerfProviderConfig {
  Duration window = 1s;  // counts become rates over this window
  // Encodings in the sysfs syntax ("event=0x0a,rdwrmask=0x1") for events a PMU's sysfs events/
  // directory does not list (AMD amd_umc lists none; Intel lists no read-queue events). Empty:
  // the event is looked up by name in sysfs.
  std::string read_event;             // memory reads, 64 bytes per count
  std::string write_event;            // memory writes, 64 bytes per count
  std::string queue_occupancy_event;  // read-queue occupancy, summed every uncore clock
  std::string queue_inserts_event;    // read-queue inserts
  std::string clock_event;            // the uncore clock the occupancy is summed on

  bool operator==(const PerfProviderConfig&) const = default;
};

struct ResctrlProviderConfig {
  Duration window = 1s;

  bool operator==(const ResctrlProviderConfig&) const = default;
};

// Each node's latency with little load, for relative thresholds. Configured values win; the other
// nodes learn theirs as the `quantile` of the readings of the last `window`, once `min_samples`
// readings exist.
// One reading every 10 s (the default [daemon] interval) over the default 24 h window:
// 8640 readings of 16 bytes, about 135 KiB per node in memory and twice that in the state file.
// A shorter interval or a longer window keeps the newest 8640, so neither grows without bound;
// validation holds min_samples within it.
inline constexpr std::size_t kMaxBaselineReadings = 8640;

struct BaselineConfig {
  std::map<NodeId, double> read_latency_ns;  // node id -> ns, in the snapshot's latency kind
  double quantile = 0.05;
  Duration window = std::chrono::hours(24);
  int min_samples = 60;

  bool operator==(const BaselineConfig&) const = default;
};

struct MetricsConfig {
  std::string latency = "auto";    // auto, perf, probe, file, none
  std::string bandwidth = "auto";  // auto, perf, resctrl, file, none
  FileProviderConfig file;
  ProbeProviderConfig probe;
  PerfProviderConfig perf;
  ResctrlProviderConfig resctrl;
  BaselineConfig baseline;  // [metrics.baseline]: not a provider, but read like their sections

  bool operator==(const MetricsConfig&) const = default;
};

struct ActuatorConfig {
  double rate_limit_mib_per_s = 512;  // 0 = unlimited
  Duration call_target = 20ms;  // each move_pages call should stall the target about this long
  bool move_shared = false;     // MPOL_MF_MOVE_ALL; needs CAP_SYS_NICE
  std::optional<Bytes> min_free_bytes;  // unset: max(1 GiB, 2% of the node)
  Duration job_deadline = 5min;
  std::string page_order = "auto";  // auto, hot_first, address (actuator::PageOrder's names)
  Duration hotness_window = 5s;     // how long DAMON watches before a hot_first job moves

  bool operator==(const ActuatorConfig&) const = default;
};

struct EvictionConfig {
  std::string action = "none";    // none, freeze, kill, exec
  std::vector<std::string> exec;  // argv, run without a shell, when action = "exec"
  Duration timeout = 30s;

  bool operator==(const EvictionConfig&) const = default;
};

struct ExportConfig {
  std::string textfile;                   // Prometheus textfile-collector file; empty = off
  std::string audit_log;                  // JSON lines; empty = off
  Bytes audit_log_max_bytes = 16 * kMiB;  // rotated beyond this

  bool operator==(const ExportConfig&) const = default;
};

struct Config {
  DaemonConfig daemon;
  AdminConfig admin;
  core::PolicyConfig policy{.strategy = core::Strategy::equalize};
  std::vector<PoolConfig> pools;
  MetricsConfig metrics;
  ActuatorConfig actuator;
  EvictionConfig eviction;
  ExportConfig export_;  // [export]
};

}  // namespace nb::config
