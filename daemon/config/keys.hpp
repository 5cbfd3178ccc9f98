#pragma once
// The key table of every config section (see key_table.hpp). Rows are in the order the sections'
// keys are read and checked; config.toml.example documents each key at more length.

#include "core/policy_config.hpp"
#include "daemon/config/config.hpp"
#include "daemon/config/key_table.hpp"

namespace nb::config {

KeyTable<DaemonConfig> daemon_keys();
KeyTable<AdminConfig> admin_keys();
KeyTable<core::PolicyConfig> policy_keys();
KeyTable<PoolConfig> pool_keys();
// [metrics] itself: which provider measures each metric. Each provider's own section is below.
KeyTable<MetricsConfig> metrics_keys();
KeyTable<FileProviderConfig> file_provider_keys();
KeyTable<ProbeProviderConfig> probe_provider_keys();
KeyTable<PerfProviderConfig> perf_provider_keys();
KeyTable<ResctrlProviderConfig> resctrl_provider_keys();
KeyTable<BaselineConfig> baseline_keys();
KeyTable<ActuatorConfig> actuator_keys();
KeyTable<EvictionConfig> eviction_keys();
KeyTable<ExportConfig> export_keys();

// Each metrics provider's own [metrics.<name>] section, in file order: `visit(name, keys,
// section)`. Loading, validation and the effective config all walk this one list.
template <typename Metrics, typename Visit>
void for_each_provider_section(Metrics& metrics, Visit&& visit) {
  visit("file", file_provider_keys(), metrics.file);
  visit("probe", probe_provider_keys(), metrics.probe);
  visit("perf", perf_provider_keys(), metrics.perf);
  visit("resctrl", resctrl_provider_keys(), metrics.resctrl);
}

// Every [metrics.<name>] section: the providers' and then [metrics.baseline], which is not a
// provider but is read, checked and dumped the same way.
template <typename Metrics, typename Visit>
void for_each_metrics_section(Metrics& metrics, Visit&& visit) {
  for_each_provider_section(metrics, visit);
  visit("baseline", baseline_keys(), metrics.baseline);
}

// The values [daemon] log_level accepts.
std::span<const std::string_view> log_levels();

}  // namespace nb::config
