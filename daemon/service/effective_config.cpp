#include "daemon/service/effective_config.hpp"

#include <cstdio>

#include "daemon/config/parse_units.hpp"

namespace nb::service {

namespace {

using config::format_duration;
using config::format_size;

std::string octal_mode(unsigned mode) {
  char text[16];
  std::snprintf(text, sizeof text, "%04o", mode);
  return text;
}

nlohmann::json policy_json(const core::PolicyConfig& p) {
  return {
      {"grace_read_latency_ns", p.grace_read_latency_ns},
      {"force_read_latency_ns", p.force_read_latency_ns},
      {"grace_latency_gap_ns", p.grace_latency_gap_ns},
      {"grace_max_distance", p.grace_max_distance},
      {"grace_gap_ratio", p.grace_gap_ratio},
      {"force_gap_ratio", p.force_gap_ratio},
      {"bandwidth_high_ratio", p.bandwidth_high_ratio},
      {"bandwidth_medium_ratio", p.bandwidth_medium_ratio},
      {"container_min_bytes", format_size(p.container_min_bytes)},
      {"container_max_bytes", format_size(p.container_max_bytes)},
      {"reclaim_container_min_bytes", format_size(p.reclaim_container_min_bytes)},
      {"reclaim_container_max_bytes", format_size(p.reclaim_container_max_bytes)},
      {"round_max_bytes", format_size(p.round_max_bytes)},
      {"reclaim_round_max_bytes", format_size(p.reclaim_round_max_bytes)},
      {"reclaim_round_enough_bytes", format_size(p.reclaim_round_enough_bytes)},
      {"supported_pools", p.supported_pools},
      {"reclaim_pool", p.reclaim_pool},
      {"migrate_threshold", p.migrate_threshold},
      {"min_interval", format_duration(p.min_interval)},
      {"ping_pong_window", format_duration(p.ping_pong_window)},
  };
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
       {{"interval", format_duration(c.daemon.interval)},
        {"dry_run", c.daemon.dry_run},
        {"log_level", c.daemon.log_level},
        {"state_dir", c.daemon.state_dir},
        {"lock_file", c.daemon.lock_file}}},
      {"admin",
       {{"socket", c.admin.socket},
        {"socket_mode", octal_mode(c.admin.socket_mode)},
        {"admin_group", c.admin.admin_group},
        {"max_clients", c.admin.max_clients},
        {"max_request_bytes", format_size(c.admin.max_request_bytes)},
        {"idle_timeout", format_duration(c.admin.idle_timeout)}}},
      {"policy", policy_json(c.policy)},
      {"pool", pools},
      {"metrics",
       {{"latency", m.latency},
        {"bandwidth", m.bandwidth},
        {"file",
         {{"path", m.file.path},
          {"format", m.file.format},
          {"max_age", format_duration(m.file.max_age)},
          {"latency_metric", m.file.latency_metric},
          {"bandwidth_metric", m.file.bandwidth_metric}}},
        {"probe",
         {{"buffer_bytes", format_size(m.probe.buffer_bytes)},
          {"loads_per_sample", m.probe.loads_per_sample},
          {"sample_interval", format_duration(m.probe.sample_interval)},
          {"cpu_budget", m.probe.cpu_budget}}},
        {"perf", {{"window", format_duration(m.perf.window)}}},
        {"resctrl", {{"window", format_duration(m.resctrl.window)}}}}},
      {"actuator",
       {{"rate_limit", c.actuator.rate_limit_mib_per_s},
        {"call_target", format_duration(c.actuator.call_target)},
        {"move_shared", c.actuator.move_shared},
        {"min_free_bytes", c.actuator.min_free_bytes
                               ? nlohmann::json(format_size(*c.actuator.min_free_bytes))
                               : nlohmann::json("auto")},
        {"job_deadline", format_duration(c.actuator.job_deadline)}}},
      {"eviction",
       {{"action", c.eviction.action},
        {"exec", c.eviction.exec},
        {"timeout", format_duration(c.eviction.timeout)}}},
      {"export",
       {{"textfile", c.export_.textfile},
        {"audit_log", c.export_.audit_log},
        {"audit_log_max_bytes", format_size(c.export_.audit_log_max_bytes)}}},
  };
}

}  // namespace nb::service
