#include "daemon/service/effective_config.hpp"

#include <cstdio>

#include "base/parse_units.hpp"
#include "daemon/host/policy_json.hpp"

namespace nb::service {

namespace {

std::string octal_mode(unsigned mode) {
  char text[16];
  std::snprintf(text, sizeof text, "%04o", mode);
  return text;
}

}  // namespace

nlohmann::json effective_config_json(const config::Config& c) {
  nlohmann::json pools = nlohmann::json::array();
  for (const auto& pool : c.pools) {
    pools.push_back({{"name", pool.name},
                     {"cgroups", pool.cgroups},
                     {"nodes", pool.nodes ? nlohmann::json(*pool.nodes) : nlohmann::json("auto")}});
  }
  const auto& m = c.metrics;
  return {
      {"daemon",
       {{"interval", exact_duration_text(c.daemon.interval)},
        {"dry_run", c.daemon.dry_run},
        {"log_level", c.daemon.log_level},
        {"state_dir", c.daemon.state_dir},
        {"lock_file", c.daemon.lock_file}}},
      {"admin",
       {{"socket", c.admin.socket},
        {"socket_mode", octal_mode(c.admin.socket_mode)},
        {"admin_group", c.admin.admin_group},
        {"max_clients", c.admin.max_clients},
        {"max_request_bytes", exact_size_text(c.admin.max_request_bytes)},
        {"idle_timeout", exact_duration_text(c.admin.idle_timeout)}}},
      {"policy", host::policy_overrides_json(c.policy)},
      {"pool", pools},
      {"metrics",
       {{"latency", m.latency},
        {"bandwidth", m.bandwidth},
        {"file",
         {{"path", m.file.path},
          {"format", m.file.format},
          {"max_age", exact_duration_text(m.file.max_age)},
          {"latency_metric", m.file.latency_metric},
          {"bandwidth_metric", m.file.bandwidth_metric}}},
        {"probe",
         {{"buffer_bytes", exact_size_text(m.probe.buffer_bytes)},
          {"loads_per_sample", m.probe.loads_per_sample},
          {"sample_interval", exact_duration_text(m.probe.sample_interval)},
          {"cpu_budget", m.probe.cpu_budget}}},
        {"perf",
         {{"window", exact_duration_text(m.perf.window)},
          {"read_event", m.perf.read_event},
          {"write_event", m.perf.write_event},
          {"queue_occupancy_event", m.perf.queue_occupancy_event},
          {"queue_inserts_event", m.perf.queue_inserts_event},
          {"clock_event", m.perf.clock_event}}},
        {"resctrl", {{"window", exact_duration_text(m.resctrl.window)}}}}},
      {"actuator",
       {{"rate_limit", c.actuator.rate_limit_mib_per_s},
        {"call_target", exact_duration_text(c.actuator.call_target)},
        {"move_shared", c.actuator.move_shared},
        {"min_free_bytes", c.actuator.min_free_bytes
                               ? nlohmann::json(exact_size_text(*c.actuator.min_free_bytes))
                               : nlohmann::json("auto")},
        {"job_deadline", exact_duration_text(c.actuator.job_deadline)}}},
      {"eviction",
       {{"action", c.eviction.action},
        {"exec", c.eviction.exec},
        {"timeout", exact_duration_text(c.eviction.timeout)}}},
      {"export",
       {{"textfile", c.export_.textfile},
        {"audit_log", c.export_.audit_log},
        {"audit_log_max_bytes", exact_size_text(c.export_.audit_log_max_bytes)}}},
  };
}

}  // namespace nb::service
