// The effective configuration as the `config` admin command shows it, and the key tables behind
// it: the defaults' dump is pinned byte for byte.

#include "daemon/config/config_json.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "daemon/config/keys.hpp"

namespace nb::config {
namespace {

// The defaults as `numabalancerctl config` and `--check-config` print them.
constexpr const char* kDefaultsJson = R"json({
  "actuator": {
    "call_target": "20ms",
    "hotness_window": "5s",
    "job_deadline": "5m",
    "min_free_bytes": "auto",
    "move_shared": false,
    "page_order": "auto",
    "rate_limit": 512.0
  },
  "admin": {
    "admin_group": "numabalancer",
    "idle_timeout": "1m",
    "max_clients": 64,
    "max_request_bytes": "64KiB",
    "max_watchers": 16,
    "socket": "/run/numabalancer/admin.sock",
    "socket_mode": "0660"
  },
  "daemon": {
    "dry_run": false,
    "interval": "10s",
    "lock_file": "/run/numabalancer/numabalancerd.lock",
    "log_level": "info",
    "scan_timeout": "1m",
    "state_dir": "/var/lib/numabalancer"
  },
  "eviction": {
    "action": "none",
    "exec": [],
    "timeout": "30s"
  },
  "export": {
    "audit_log": "",
    "audit_log_max_bytes": "16MiB",
    "textfile": ""
  },
  "metrics": {
    "bandwidth": "auto",
    "baseline": {
      "min_samples": 60,
      "quantile": 0.05,
      "read_latency_ns": {},
      "window": "24h"
    },
    "file": {
      "bandwidth_metric": "numabalancer_node_bandwidth_bytes_per_second",
      "format": "auto",
      "latency_metric": "numabalancer_node_read_latency_seconds",
      "max_age": "30s",
      "path": ""
    },
    "latency": "auto",
    "perf": {
      "clock_event": "",
      "queue_inserts_event": "",
      "queue_occupancy_event": "",
      "read_event": "",
      "window": "1s",
      "write_event": ""
    },
    "probe": {
      "buffer_bytes": "64MiB",
      "cpu_budget": 0.005,
      "loads_per_sample": 512,
      "sample_interval": "1s"
    },
    "resctrl": {
      "window": "1s"
    }
  },
  "policy": {
    "backoff_after": 3,
    "bandwidth_high_ratio": 0.8,
    "bandwidth_medium_ratio": 0.5,
    "container_max_bytes": "10GiB",
    "container_min_bytes": "128MiB",
    "effect_delay": "1m",
    "equalize_deadband": 0.05,
    "force_gap_ratio": 0.2,
    "force_latency_ratio": 1.5,
    "force_read_latency_ns": 80.0,
    "grace_gap_ratio": 0.15,
    "grace_latency_gap_ns": 40.0,
    "grace_latency_gap_ratio": 0.4,
    "grace_latency_ratio": 1.3,
    "grace_max_distance": 19,
    "grace_read_latency_ns": 70.0,
    "max_backoff": "30m",
    "migrate_threshold": 0.7,
    "min_improvement": 0.1,
    "min_interval": "30s",
    "ping_pong_window": "15m",
    "reclaim_container_max_bytes": "15GiB",
    "reclaim_container_min_bytes": "128MiB",
    "reclaim_pool": "reclaim",
    "reclaim_round_enough_bytes": "3GiB",
    "reclaim_round_max_bytes": "15GiB",
    "round_max_bytes": "12GiB",
    "strategy": "equalize",
    "supported_pools": [
      "share"
    ],
    "threshold_mode": "auto"
  },
  "pool": []
})json";

TEST(EffectiveConfigJson, DefaultsAreWrittenAsInTheFile) {
  EXPECT_EQ(effective_config_json(Config{}).dump(2), kDefaultsJson);
}

TEST(EffectiveConfigJson, UnsetOptionalsAreAutoAndPoolsAreAnArray) {
  Config config;
  config.actuator.min_free_bytes = 2 * kGiB;
  config.pools.push_back(PoolConfig{"share", {"a/*"}, std::vector<NodeId>{0, 1}});
  config.pools.push_back(PoolConfig{"reclaim", {"b/**"}, std::nullopt});
  nlohmann::json json = effective_config_json(config);
  EXPECT_EQ(json["actuator"]["min_free_bytes"], "2GiB");
  EXPECT_EQ(json["pool"][0]["nodes"], nlohmann::json({0, 1}));
  EXPECT_EQ(json["pool"][1]["nodes"], "auto");
}

TEST(EffectiveConfigJson, BaselinesAreAnObjectByNodeId) {
  Config config;
  config.metrics.baseline.read_latency_ns = {{0, 92.0}, {1, 141.5}};
  nlohmann::json json = effective_config_json(config);
  EXPECT_EQ(json["metrics"]["baseline"]["read_latency_ns"],
            nlohmann::json({{"0", 92.0}, {"1", 141.5}}));
}

template <typename S>
void expect_well_formed(KeyTable<S> keys) {
  std::set<std::string_view> names;
  for (const Key<S>& key : keys) {
    EXPECT_TRUE(names.insert(key.name).second) << "duplicate key " << key.name;
    EXPECT_FALSE(key.doc.empty()) << key.name << " has no doc line";
  }
}

TEST(KeyTables, NamesAreUniqueAndEveryKeyIsDocumented) {
  expect_well_formed(daemon_keys());
  expect_well_formed(admin_keys());
  expect_well_formed(policy_keys());
  expect_well_formed(pool_keys());
  expect_well_formed(metrics_keys());
  const MetricsConfig metrics;
  for_each_metrics_section(
      metrics, [](std::string_view, auto keys, const auto&) { expect_well_formed(keys); });
  expect_well_formed(actuator_keys());
  expect_well_formed(eviction_keys());
  expect_well_formed(export_keys());
}

}  // namespace
}  // namespace nb::config
