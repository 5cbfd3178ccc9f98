#include "daemon/config/keys.hpp"

#include <array>

#include "actuator/page_order.hpp"

namespace nb::config {
namespace {

using B = Bound;

constexpr std::array<std::string_view, 7> kLogLevels{"trace", "debug",    "info", "warn",
                                                     "error", "critical", "off"};
constexpr std::array<std::string_view, 3> kFileFormats{"auto", "json", "prometheus"};

}  // namespace

std::span<const std::string_view> log_levels() {
  return kLogLevels;
}

KeyTable<DaemonConfig> daemon_keys() {
  using S = DaemonConfig;
  static const Key<S> keys[] = {
      {"interval", &S::interval, B::positive, "how often a round runs"},
      {"scan_timeout", &S::scan_timeout, B::positive,
       "a round whose reading of the host takes longer fails"},
      {"dry_run", &S::dry_run, B::none, "decide and report, but never migrate or evict"},
      {"log_level", &S::log_level, B::none, "the least severe message logged", kLogLevels},
      {"state_dir", &S::state_dir, B::absolute_path, "where the history of rounds is kept"},
      {"lock_file", &S::lock_file, B::absolute_path, "held while the daemon runs"},
  };
  return keys;
}

KeyTable<AdminConfig> admin_keys() {
  using S = AdminConfig;
  static const Key<S> keys[] = {
      {"socket", &S::socket, B::absolute_path, "the admin API's Unix socket"},
      {"socket_mode", &S::socket_mode, B::file_mode, "permissions of the socket file"},
      {"admin_group", &S::admin_group, B::none, "group allowed to run mutating commands"},
      {"max_clients", &S::max_clients, B::at_least_one, "connections served at once"},
      {"max_watchers", &S::max_watchers, B::one_to_1024, "connections streaming events"},
      {"max_request_bytes", &S::max_request_bytes, B::kib_to_mib, "longest request line"},
      {"idle_timeout", &S::idle_timeout, B::positive, "an idle connection is closed after this"},
  };
  return keys;
}

KeyTable<core::PolicyConfig> policy_keys() {
  using S = core::PolicyConfig;
  static const Key<S> keys[] = {
      {"strategy", &S::strategy, B::none,
       "katalyst (the seed's: whole containers past thresholds) or equalize (sized moves)"},
      {"equalize_deadband", &S::equalize_deadband, B::open_fraction,
       "equalize: nodes whose loaded latencies are within this fraction of each other are even"},
      {"grace_read_latency_ns", &S::grace_read_latency_ns, B::positive,
       "read latency above which a node is under grace pressure"},
      {"force_read_latency_ns", &S::force_read_latency_ns, B::positive,
       "read latency above which a node is under force pressure"},
      {"grace_latency_gap_ns", &S::grace_latency_gap_ns, B::not_negative,
       "grace pressure also when a near node is faster by more than this"},
      {"threshold_mode", &S::threshold_mode, B::none,
       "auto, absolute (the *_ns keys) or relative (the *_ratio keys, times each baseline)"},
      {"grace_latency_ratio", &S::grace_latency_ratio, B::positive,
       "relative mode: grace pressure above this multiple of the source's baseline"},
      {"force_latency_ratio", &S::force_latency_ratio, B::positive,
       "relative mode: force pressure above this multiple of the source's baseline"},
      {"grace_latency_gap_ratio", &S::grace_latency_gap_ratio, B::not_negative,
       "relative mode: grace when a near node is faster by this times the source's baseline"},
      {"grace_max_distance", &S::grace_max_distance, B::not_negative,
       "the largest NUMA distance that still counts as near"},
      {"grace_gap_ratio", &S::grace_gap_ratio, B::ratio, "how much faster a near destination is"},
      {"force_gap_ratio", &S::force_gap_ratio, B::ratio, "the same beyond grace_max_distance"},
      {"bandwidth_high_ratio", &S::bandwidth_high_ratio, B::ratio,
       "above this share of the busiest node's bandwidth, bandwidth is high"},
      {"bandwidth_medium_ratio", &S::bandwidth_medium_ratio, B::ratio,
       "above this (and not high), bandwidth is medium"},
      {"container_min_bytes", &S::container_min_bytes, B::not_negative,
       "a container smaller than this on the source is not moved"},
      {"container_max_bytes", &S::container_max_bytes, B::not_negative,
       "a container larger than this on the source is not moved"},
      {"reclaim_container_min_bytes", &S::reclaim_container_min_bytes, B::not_negative,
       "container_min_bytes for the reclaim pool"},
      {"reclaim_container_max_bytes", &S::reclaim_container_max_bytes, B::not_negative,
       "container_max_bytes for the reclaim pool"},
      {"round_max_bytes", &S::round_max_bytes, B::not_negative, "memory planned for one round"},
      {"reclaim_round_max_bytes", &S::reclaim_round_max_bytes, B::not_negative,
       "of which at most this much from the reclaim pool"},
      {"reclaim_round_enough_bytes", &S::reclaim_round_enough_bytes, B::not_negative,
       "when the reclaim pool alone gives this much, the round takes nothing else"},
      {"supported_pools", &S::supported_pools, B::none, "pools whose containers may be moved"},
      {"reclaim_pool", &S::reclaim_pool, B::none, "the pool of best-effort containers"},
      {"migrate_threshold", &S::migrate_threshold, B::ratio,
       "a job succeeds once it moved this fraction of the planned bytes"},
      {"min_interval", &S::min_interval, B::not_negative, "cooldown after a round that acted"},
      {"ping_pong_window", &S::ping_pong_window, B::not_negative,
       "memory moved from A to B is not moved back within this long"},
      {"effect_delay", &S::effect_delay, B::not_negative,
       "a round's effect is measured this long after its job finished"},
      {"min_improvement", &S::min_improvement, B::open_fraction,
       "a round improved when the hot latency fell by at least this fraction"},
      {"backoff_after", &S::backoff_after, B::not_negative,
       "after this many rounds off a node in a row did not improve, wait longer; 0 turns it off"},
      {"max_backoff", &S::max_backoff, B::positive, "the longest back-off wait"},
  };
  return keys;
}

KeyTable<PoolConfig> pool_keys() {
  using S = PoolConfig;
  static const Key<S> keys[] = {
      {"name", &S::name, B::none, "unique; referred to by the [policy] pool keys"},
      {"cgroups", &S::cgroups, B::none, "globs relative to the cgroup root"},
      {"nodes", &S::nodes, B::none, "\"auto\" or the node ids the pool's memory may use"},
  };
  return keys;
}

KeyTable<MetricsConfig> metrics_keys() {
  using S = MetricsConfig;
  static const Key<S> keys[] = {
      {"latency", &S::latency, B::none, "who measures each node's read latency"},
      {"bandwidth", &S::bandwidth, B::none, "who measures each node's memory bandwidth"},
  };
  return keys;
}

KeyTable<FileProviderConfig> file_provider_keys() {
  using S = FileProviderConfig;
  static const Key<S> keys[] = {
      {"path", &S::path, B::absolute_path_or_empty, "values written by another program"},
      {"format", &S::format, B::none, "auto, json or prometheus", kFileFormats},
      {"max_age", &S::max_age, B::positive, "older data is stale"},
      {"latency_metric", &S::latency_metric, B::not_empty, "Prometheus name of the latency"},
      {"bandwidth_metric", &S::bandwidth_metric, B::not_empty, "Prometheus name of the bandwidth"},
  };
  return keys;
}

KeyTable<ProbeProviderConfig> probe_provider_keys() {
  using S = ProbeProviderConfig;
  static const Key<S> keys[] = {
      {"buffer_bytes", &S::buffer_bytes, B::positive, "pointer-chase buffer per node"},
      {"loads_per_sample", &S::loads_per_sample, B::at_least_one, "dependent loads in a sample"},
      {"sample_interval", &S::sample_interval, B::positive, "time between samples"},
      {"cpu_budget", &S::cpu_budget, B::ratio, "fraction of one core per node the probe may use"},
  };
  return keys;
}

KeyTable<PerfProviderConfig> perf_provider_keys() {
  using S = PerfProviderConfig;
  static const Key<S> keys[] = {
      {"window", &S::window, B::positive, "counts become rates over this window"},
      {"read_event", &S::read_event, B::none, "memory reads, 64 bytes per count"},
      {"write_event", &S::write_event, B::none, "memory writes, 64 bytes per count"},
      {"queue_occupancy_event", &S::queue_occupancy_event, B::none, "read-queue occupancy"},
      {"queue_inserts_event", &S::queue_inserts_event, B::none, "read-queue inserts"},
      {"clock_event", &S::clock_event, B::none, "the uncore clock occupancy is summed on"},
  };
  return keys;
}

KeyTable<ResctrlProviderConfig> resctrl_provider_keys() {
  using S = ResctrlProviderConfig;
  static const Key<S> keys[] = {
      {"window", &S::window, B::positive, "byte counts become rates over this window"},
  };
  return keys;
}

KeyTable<BaselineConfig> baseline_keys() {
  using S = BaselineConfig;
  static const Key<S> keys[] = {
      {"read_latency_ns", &S::read_latency_ns, B::positive,
       "node id -> that node's latency with little load; learned where not given"},
      {"quantile", &S::quantile, B::open_fraction, "a learned baseline is this quantile"},
      {"window", &S::window, B::positive, "of the readings of this long"},
      {"min_samples", &S::min_samples, B::at_least_one,
       "readings a node needs before its baseline is learned"},
  };
  return keys;
}

KeyTable<ActuatorConfig> actuator_keys() {
  using S = ActuatorConfig;
  static const Key<S> keys[] = {
      {"rate_limit", &S::rate_limit_mib_per_s, B::unlimited_if_zero, "MiB/s moved at most"},
      {"call_target", &S::call_target, B::positive, "how long one move_pages call may stall"},
      {"move_shared", &S::move_shared, B::none, "also move pages shared with other processes"},
      {"min_free_bytes", &S::min_free_bytes, B::not_negative,
       "free memory a destination keeps; \"auto\" is max(1GiB, 2% of the node)"},
      {"job_deadline", &S::job_deadline, B::positive, "a job still running after this stops"},
      {"page_order", &S::page_order, B::none,
       "hot_first (DAMON's hottest regions first), address, or auto (hot_first where DAMON is)",
       actuator::kPageOrderNames},
      {"hotness_window", &S::hotness_window, B::positive,
       "how long DAMON watches a hot_first job's processes before it moves them"},
  };
  return keys;
}

KeyTable<EvictionConfig> eviction_keys() {
  using S = EvictionConfig;
  static const Key<S> keys[] = {
      {"action", &S::action, B::none, "what happens to a container marked for eviction"},
      {"exec", &S::exec, B::none, "the argv run by the exec action"},
      {"timeout", &S::timeout, B::positive, "the exec action's command is killed after this"},
  };
  return keys;
}

KeyTable<ExportConfig> export_keys() {
  using S = ExportConfig;
  static const Key<S> keys[] = {
      {"textfile", &S::textfile, B::absolute_path_or_empty, "Prometheus textfile-collector file"},
      {"audit_log", &S::audit_log, B::absolute_path_or_empty, "JSON lines of every round"},
      {"audit_log_max_bytes", &S::audit_log_max_bytes, B::positive, "rotated beyond this"},
  };
  return keys;
}

}  // namespace nb::config
