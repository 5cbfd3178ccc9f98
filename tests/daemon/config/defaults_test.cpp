// Every key's default: an empty document is Config{}, and config.toml.example writes out exactly
// those defaults wherever it sets a key.

#include <gtest/gtest.h>

#include <toml++/toml.h>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/parse_units.hpp"
#include "core/threshold_mode.hpp"
#include "daemon/config/load.hpp"
#include "daemon/config/validate.hpp"
#include "tests/daemon/config/registered_names.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::config {
namespace {

using namespace std::chrono_literals;

// Each key by its TOML name, read as text so that a mismatch names the key and both values.
struct Field {
  std::string key;
  std::function<std::string(const Config&)> read;
};

std::string text(bool value) {
  return value ? "true" : "false";
}
std::string text(int value) {
  return std::to_string(value);
}
std::string text(unsigned value) {
  return std::to_string(value);
}
std::string text(double value) {
  return std::to_string(value);
}
std::string text(const std::string& value) {
  return '"' + value + '"';
}
std::string text(Duration value) {
  return exact_duration_text(value);
}
std::string text(const std::vector<std::string>& values) {
  std::string joined = "[";
  for (const std::string& value : values) {
    joined += text(value) + ",";
  }
  return joined + "]";
}
std::string text(const std::map<NodeId, double>& values) {
  std::string joined = "{";
  for (const auto& [node, ns] : values) {
    joined += std::to_string(node) + "=" + text(ns) + ",";
  }
  return joined + "}";
}
std::string size_text(Bytes value) {
  return exact_size_text(value);
}
std::string size_text(const std::optional<Bytes>& value) {
  return value ? exact_size_text(*value) : "unset";
}

// Every key of the config, with how to read its value from a Config.
const std::vector<Field> kAllFields = {
    {"daemon.interval", [](const Config& c) { return text(c.daemon.interval); }},
    {"daemon.dry_run", [](const Config& c) { return text(c.daemon.dry_run); }},
    {"daemon.log_level", [](const Config& c) { return text(c.daemon.log_level); }},
    {"daemon.state_dir", [](const Config& c) { return text(c.daemon.state_dir); }},
    {"daemon.lock_file", [](const Config& c) { return text(c.daemon.lock_file); }},
    {"admin.socket", [](const Config& c) { return text(c.admin.socket); }},
    {"admin.socket_mode", [](const Config& c) { return text(c.admin.socket_mode); }},
    {"admin.admin_group", [](const Config& c) { return text(c.admin.admin_group); }},
    {"admin.max_clients", [](const Config& c) { return text(c.admin.max_clients); }},
    {"admin.max_watchers", [](const Config& c) { return text(c.admin.max_watchers); }},
    {"admin.max_request_bytes",
     [](const Config& c) { return size_text(c.admin.max_request_bytes); }},
    {"admin.idle_timeout", [](const Config& c) { return text(c.admin.idle_timeout); }},
    {"policy.strategy",
     [](const Config& c) { return text(std::string(core::to_string(c.policy.strategy))); }},
    {"policy.equalize_deadband", [](const Config& c) { return text(c.policy.equalize_deadband); }},
    {"policy.grace_read_latency_ns",
     [](const Config& c) { return text(c.policy.grace_read_latency_ns); }},
    {"policy.force_read_latency_ns",
     [](const Config& c) { return text(c.policy.force_read_latency_ns); }},
    {"policy.grace_latency_gap_ns",
     [](const Config& c) { return text(c.policy.grace_latency_gap_ns); }},
    {"policy.threshold_mode",
     [](const Config& c) { return text(std::string(core::to_string(c.policy.threshold_mode))); }},
    {"policy.grace_latency_ratio",
     [](const Config& c) { return text(c.policy.grace_latency_ratio); }},
    {"policy.force_latency_ratio",
     [](const Config& c) { return text(c.policy.force_latency_ratio); }},
    {"policy.grace_latency_gap_ratio",
     [](const Config& c) { return text(c.policy.grace_latency_gap_ratio); }},
    {"policy.grace_max_distance",
     [](const Config& c) { return text(c.policy.grace_max_distance); }},
    {"policy.grace_gap_ratio", [](const Config& c) { return text(c.policy.grace_gap_ratio); }},
    {"policy.force_gap_ratio", [](const Config& c) { return text(c.policy.force_gap_ratio); }},
    {"policy.bandwidth_high_ratio",
     [](const Config& c) { return text(c.policy.bandwidth_high_ratio); }},
    {"policy.bandwidth_medium_ratio",
     [](const Config& c) { return text(c.policy.bandwidth_medium_ratio); }},
    {"policy.container_min_bytes",
     [](const Config& c) { return size_text(c.policy.container_min_bytes); }},
    {"policy.container_max_bytes",
     [](const Config& c) { return size_text(c.policy.container_max_bytes); }},
    {"policy.reclaim_container_min_bytes",
     [](const Config& c) { return size_text(c.policy.reclaim_container_min_bytes); }},
    {"policy.reclaim_container_max_bytes",
     [](const Config& c) { return size_text(c.policy.reclaim_container_max_bytes); }},
    {"policy.round_max_bytes", [](const Config& c) { return size_text(c.policy.round_max_bytes); }},
    {"policy.reclaim_round_max_bytes",
     [](const Config& c) { return size_text(c.policy.reclaim_round_max_bytes); }},
    {"policy.reclaim_round_enough_bytes",
     [](const Config& c) { return size_text(c.policy.reclaim_round_enough_bytes); }},
    {"policy.supported_pools", [](const Config& c) { return text(c.policy.supported_pools); }},
    {"policy.reclaim_pool", [](const Config& c) { return text(c.policy.reclaim_pool); }},
    {"policy.migrate_threshold", [](const Config& c) { return text(c.policy.migrate_threshold); }},
    {"policy.min_interval", [](const Config& c) { return text(c.policy.min_interval); }},
    {"policy.ping_pong_window", [](const Config& c) { return text(c.policy.ping_pong_window); }},
    {"metrics.latency", [](const Config& c) { return text(c.metrics.latency); }},
    {"metrics.bandwidth", [](const Config& c) { return text(c.metrics.bandwidth); }},
    {"metrics.file.path", [](const Config& c) { return text(c.metrics.file.path); }},
    {"metrics.file.format", [](const Config& c) { return text(c.metrics.file.format); }},
    {"metrics.file.max_age", [](const Config& c) { return text(c.metrics.file.max_age); }},
    {"metrics.file.latency_metric",
     [](const Config& c) { return text(c.metrics.file.latency_metric); }},
    {"metrics.file.bandwidth_metric",
     [](const Config& c) { return text(c.metrics.file.bandwidth_metric); }},
    {"metrics.probe.buffer_bytes",
     [](const Config& c) { return size_text(c.metrics.probe.buffer_bytes); }},
    {"metrics.probe.loads_per_sample",
     [](const Config& c) { return text(c.metrics.probe.loads_per_sample); }},
    {"metrics.probe.sample_interval",
     [](const Config& c) { return text(c.metrics.probe.sample_interval); }},
    {"metrics.probe.cpu_budget", [](const Config& c) { return text(c.metrics.probe.cpu_budget); }},
    {"metrics.perf.window", [](const Config& c) { return text(c.metrics.perf.window); }},
    {"metrics.resctrl.window", [](const Config& c) { return text(c.metrics.resctrl.window); }},
    {"metrics.baseline.read_latency_ns",
     [](const Config& c) { return text(c.metrics.baseline.read_latency_ns); }},
    {"metrics.baseline.quantile",
     [](const Config& c) { return text(c.metrics.baseline.quantile); }},
    {"metrics.baseline.window", [](const Config& c) { return text(c.metrics.baseline.window); }},
    {"metrics.baseline.min_samples",
     [](const Config& c) { return text(c.metrics.baseline.min_samples); }},
    {"actuator.rate_limit", [](const Config& c) { return text(c.actuator.rate_limit_mib_per_s); }},
    {"actuator.call_target", [](const Config& c) { return text(c.actuator.call_target); }},
    {"actuator.move_shared", [](const Config& c) { return text(c.actuator.move_shared); }},
    {"actuator.min_free_bytes",
     [](const Config& c) { return size_text(c.actuator.min_free_bytes); }},
    {"actuator.job_deadline", [](const Config& c) { return text(c.actuator.job_deadline); }},
    {"actuator.page_order", [](const Config& c) { return text(c.actuator.page_order); }},
    {"actuator.hotness_window", [](const Config& c) { return text(c.actuator.hotness_window); }},
    {"eviction.action", [](const Config& c) { return text(c.eviction.action); }},
    {"eviction.exec", [](const Config& c) { return text(c.eviction.exec); }},
    {"eviction.timeout", [](const Config& c) { return text(c.eviction.timeout); }},
    {"export.textfile", [](const Config& c) { return text(c.export_.textfile); }},
    {"export.audit_log", [](const Config& c) { return text(c.export_.audit_log); }},
    {"export.audit_log_max_bytes",
     [](const Config& c) { return size_text(c.export_.audit_log_max_bytes); }},
};

void expect_every_field_default(const Config& config) {
  const Config defaults;
  for (const Field& field : kAllFields) {
    EXPECT_EQ(field.read(config), field.read(defaults)) << field.key;
  }
  // The section comparisons also catch a field added to config.hpp but missing above.
  EXPECT_EQ(config.daemon, defaults.daemon);
  EXPECT_EQ(config.admin, defaults.admin);
  EXPECT_EQ(config.metrics, defaults.metrics);
  EXPECT_EQ(config.actuator, defaults.actuator);
  EXPECT_EQ(config.eviction, defaults.eviction);
  EXPECT_EQ(config.export_, defaults.export_);
}

TEST(ConfigDefaults, DocumentedDefaultsAreTheStructDefaults) {
  const Config defaults;
  const std::vector<std::pair<std::string, std::string>> documented = {
      {"daemon.interval", "10s"},
      {"daemon.dry_run", "false"},
      {"daemon.log_level", "\"info\""},
      {"daemon.state_dir", "\"/var/lib/numabalancer\""},
      {"daemon.lock_file", "\"/run/numabalancer/numabalancerd.lock\""},
      {"admin.socket", "\"/run/numabalancer/admin.sock\""},
      {"admin.socket_mode", std::to_string(0660)},
      {"admin.admin_group", "\"numabalancer\""},
      {"admin.max_clients", "64"},
      {"admin.max_watchers", "16"},
      {"admin.max_request_bytes", "64KiB"},
      {"admin.idle_timeout", "1m"},
      {"policy.strategy", "\"equalize\""},
      {"policy.equalize_deadband", text(0.05)},
      {"policy.grace_read_latency_ns", text(70.0)},
      {"policy.force_read_latency_ns", text(80.0)},
      {"policy.grace_latency_gap_ns", text(40.0)},
      {"policy.threshold_mode", "\"auto\""},
      {"policy.grace_latency_ratio", text(1.3)},
      {"policy.force_latency_ratio", text(1.5)},
      {"policy.grace_latency_gap_ratio", text(0.4)},
      {"policy.grace_max_distance", "19"},
      {"policy.grace_gap_ratio", text(0.15)},
      {"policy.force_gap_ratio", text(0.2)},
      {"policy.bandwidth_high_ratio", text(0.8)},
      {"policy.bandwidth_medium_ratio", text(0.5)},
      {"policy.container_min_bytes", "128MiB"},
      {"policy.container_max_bytes", "10GiB"},
      {"policy.reclaim_container_min_bytes", "128MiB"},
      {"policy.reclaim_container_max_bytes", "15GiB"},
      {"policy.round_max_bytes", "12GiB"},
      {"policy.reclaim_round_max_bytes", "15GiB"},
      {"policy.reclaim_round_enough_bytes", "3GiB"},
      {"policy.supported_pools", "[\"share\",]"},
      {"policy.reclaim_pool", "\"reclaim\""},
      {"policy.migrate_threshold", text(0.7)},
      {"policy.min_interval", "30s"},
      {"policy.ping_pong_window", "15m"},
      {"metrics.latency", "\"auto\""},
      {"metrics.bandwidth", "\"auto\""},
      {"metrics.file.path", "\"\""},
      {"metrics.file.format", "\"auto\""},
      {"metrics.file.max_age", "30s"},
      {"metrics.file.latency_metric", "\"numabalancer_node_read_latency_seconds\""},
      {"metrics.file.bandwidth_metric", "\"numabalancer_node_bandwidth_bytes_per_second\""},
      {"metrics.probe.buffer_bytes", "64MiB"},
      {"metrics.probe.loads_per_sample", "512"},
      {"metrics.probe.sample_interval", "1s"},
      {"metrics.probe.cpu_budget", text(0.005)},
      {"metrics.perf.window", "1s"},
      {"metrics.resctrl.window", "1s"},
      {"metrics.baseline.read_latency_ns", "{}"},
      {"metrics.baseline.quantile", text(0.05)},
      {"metrics.baseline.window", "24h"},
      {"metrics.baseline.min_samples", "60"},
      {"actuator.rate_limit", text(512.0)},
      {"actuator.call_target", "20ms"},
      {"actuator.move_shared", "false"},
      {"actuator.min_free_bytes", "unset"},
      {"actuator.job_deadline", "5m"},
      {"actuator.page_order", "\"auto\""},
      {"actuator.hotness_window", "5s"},
      {"eviction.action", "\"none\""},
      {"eviction.exec", "[]"},
      {"eviction.timeout", "30s"},
      {"export.textfile", "\"\""},
      {"export.audit_log", "\"\""},
      {"export.audit_log_max_bytes", "16MiB"},
  };
  ASSERT_EQ(documented.size(), kAllFields.size());
  for (std::size_t i = 0; i < documented.size(); ++i) {
    EXPECT_EQ(kAllFields[i].key, documented[i].first);
    EXPECT_EQ(kAllFields[i].read(defaults), documented[i].second) << documented[i].first;
  }
  EXPECT_TRUE(defaults.pools.empty());
}

TEST(ConfigDefaults, BuiltInDefaultsPassValidation) {
  for (const ConfigProblem& problem : validate_config(Config{}, registered_names())) {
    ADD_FAILURE() << problem.to_string();
  }
}

TEST(ConfigDefaults, EmptyDocumentLoadsAsDefaults) {
  ConfigLoad load = load_config_string("", "empty.toml", registered_names());
  ASSERT_TRUE(load.ok()) << load.problems.front().to_string();
  expect_every_field_default(load.config);
  EXPECT_TRUE(load.config.pools.empty());
}

TEST(ConfigDefaults, EmptySectionsLoadAsDefaults) {
  ConfigLoad load = load_config_string(
      "[daemon]\n[admin]\n[policy]\n[metrics]\n[metrics.file]\n[metrics.probe]\n"
      "[metrics.perf]\n[metrics.resctrl]\n[metrics.baseline]\n[actuator]\n[eviction]\n[export]\n",
      "sections.toml", registered_names());
  ASSERT_TRUE(load.ok()) << load.problems.front().to_string();
  expect_every_field_default(load.config);
}

TEST(ConfigDefaults, ExampleFileLoadsWithoutProblems) {
  ConfigLoad load = load_config_file(NB_SOURCE_DIR "/config.toml.example", registered_names());
  for (const ConfigProblem& problem : load.problems) {
    ADD_FAILURE() << problem.to_string();
  }
}

TEST(ConfigDefaults, ExampleFileSetsTheDocumentedDefaults) {
  ConfigLoad load = load_config_file(NB_SOURCE_DIR "/config.toml.example", registered_names());
  ASSERT_TRUE(load.ok());
  expect_every_field_default(load.config);
}

TEST(ConfigDefaults, ExampleFileDeclaresShareAndReclaimPoolsOnAutoNodes) {
  ConfigLoad load = load_config_file(NB_SOURCE_DIR "/config.toml.example", registered_names());
  ASSERT_TRUE(load.ok());
  const std::vector<PoolConfig> expected = {
      {.name = "share",
       .cgroups = {"system.slice/*.service", "machine.slice/*.scope"},
       .nodes = std::nullopt},
      {.name = "reclaim", .cgroups = {"batch.slice/**"}, .nodes = std::nullopt},
  };
  EXPECT_EQ(load.config.pools, expected);
  EXPECT_EQ(load.config.policy.supported_pools, std::vector<std::string>{"share"});
  EXPECT_EQ(load.config.policy.reclaim_pool, "reclaim");
}

// Every key is written out, so that the file documents it; the four without a default value are
// shown commented out with an example.
TEST(ConfigDefaults, ExampleFileWritesOutEveryKey) {
  toml::table example = toml::parse_file(NB_SOURCE_DIR "/config.toml.example");
  std::string text = nb::testing::read_file(NB_SOURCE_DIR "/config.toml.example");
  const std::map<std::string, std::string> commented = {
      {"metrics.file.path", "\n# path = \""},
      {"metrics.baseline.read_latency_ns", "\n# read_latency_ns = { \"0\" = "},
      {"actuator.min_free_bytes", "\n# min_free_bytes = \""},
      {"eviction.exec", "\n# exec = [\""},
  };
  for (const Field& field : kAllFields) {
    if (auto it = commented.find(field.key); it != commented.end()) {
      EXPECT_FALSE(example.at_path(field.key)) << field.key;
      EXPECT_NE(text.find(it->second), std::string::npos) << field.key;
    } else {
      EXPECT_TRUE(example.at_path(field.key)) << field.key << " is not in the example";
    }
  }
}

// scripts/run.sh points these three keys into its run directory by rewriting whole lines.
TEST(ConfigDefaults, ExampleFileKeepsTheRunScriptKeysAtLineStart) {
  std::string example = nb::testing::read_file(NB_SOURCE_DIR "/config.toml.example");
  for (std::string_view key : {"\nstate_dir = \"", "\nlock_file = \"", "\nsocket = \""}) {
    EXPECT_NE(example.find(key), std::string::npos) << key;
  }
}

}  // namespace
}  // namespace nb::config
