#include "daemon/config/load.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "daemon/config/toml_place.hpp"
#include "daemon/config/toml_section.hpp"
#include "daemon/config/validate.hpp"

namespace nb::config {
namespace {

void read_daemon(Section& section, DaemonConfig& daemon) {
  section.duration("interval", daemon.interval);
  section.boolean("dry_run", daemon.dry_run);
  section.string("log_level", daemon.log_level);
  section.string("state_dir", daemon.state_dir);
  section.string("lock_file", daemon.lock_file);
}

void read_admin(Section& section, AdminConfig& admin) {
  section.string("socket", admin.socket);
  section.socket_mode("socket_mode", admin.socket_mode);
  section.string("admin_group", admin.admin_group);
  section.integer("max_clients", admin.max_clients);
  section.size("max_request_bytes", admin.max_request_bytes);
  section.duration("idle_timeout", admin.idle_timeout);
}

void read_policy(Section& section, core::PolicyConfig& policy) {
  section.number("grace_read_latency_ns", policy.grace_read_latency_ns);
  section.number("force_read_latency_ns", policy.force_read_latency_ns);
  section.number("grace_latency_gap_ns", policy.grace_latency_gap_ns);
  section.integer("grace_max_distance", policy.grace_max_distance);
  section.number("grace_gap_ratio", policy.grace_gap_ratio);
  section.number("force_gap_ratio", policy.force_gap_ratio);
  section.number("bandwidth_high_ratio", policy.bandwidth_high_ratio);
  section.number("bandwidth_medium_ratio", policy.bandwidth_medium_ratio);
  section.size("container_min_bytes", policy.container_min_bytes);
  section.size("container_max_bytes", policy.container_max_bytes);
  section.size("reclaim_container_min_bytes", policy.reclaim_container_min_bytes);
  section.size("reclaim_container_max_bytes", policy.reclaim_container_max_bytes);
  section.size("round_max_bytes", policy.round_max_bytes);
  section.size("reclaim_round_max_bytes", policy.reclaim_round_max_bytes);
  section.size("reclaim_round_enough_bytes", policy.reclaim_round_enough_bytes);
  section.strings("supported_pools", policy.supported_pools);
  section.string("reclaim_pool", policy.reclaim_pool);
  section.number("migrate_threshold", policy.migrate_threshold);
  section.duration("min_interval", policy.min_interval);
  section.duration("ping_pong_window", policy.ping_pong_window);
}

void read_pool(Section& section, PoolConfig& pool) {
  section.string("name", pool.name);
  section.strings("cgroups", pool.cgroups);
  section.nodes("nodes", pool.nodes);
}

void read_metrics(Loader& loader, Section& section, MetricsConfig& metrics) {
  section.string("latency", metrics.latency);
  section.string("bandwidth", metrics.bandwidth);
  if (const toml::table* table = section.table("file")) {
    Section file(loader, *table, section.key("file"));
    file.string("path", metrics.file.path);
    file.string("format", metrics.file.format);
    file.duration("max_age", metrics.file.max_age);
    file.string("latency_metric", metrics.file.latency_metric);
    file.string("bandwidth_metric", metrics.file.bandwidth_metric);
    file.finish();
  }
  if (const toml::table* table = section.table("probe")) {
    Section probe(loader, *table, section.key("probe"));
    probe.size("buffer_bytes", metrics.probe.buffer_bytes);
    probe.integer("loads_per_sample", metrics.probe.loads_per_sample);
    probe.duration("sample_interval", metrics.probe.sample_interval);
    probe.number("cpu_budget", metrics.probe.cpu_budget);
    probe.finish();
  }
  if (const toml::table* table = section.table("perf")) {
    Section perf(loader, *table, section.key("perf"));
    perf.duration("window", metrics.perf.window);
    perf.string("read_event", metrics.perf.read_event);
    perf.string("write_event", metrics.perf.write_event);
    perf.string("queue_occupancy_event", metrics.perf.queue_occupancy_event);
    perf.string("queue_inserts_event", metrics.perf.queue_inserts_event);
    perf.string("clock_event", metrics.perf.clock_event);
    perf.finish();
  }
  if (const toml::table* table = section.table("resctrl")) {
    Section resctrl(loader, *table, section.key("resctrl"));
    resctrl.duration("window", metrics.resctrl.window);
    resctrl.finish();
  }
}

void read_actuator(Section& section, ActuatorConfig& actuator) {
  section.number("rate_limit", actuator.rate_limit_mib_per_s);
  section.duration("call_target", actuator.call_target);
  section.boolean("move_shared", actuator.move_shared);
  section.optional_size("min_free_bytes", actuator.min_free_bytes);
  section.duration("job_deadline", actuator.job_deadline);
}

void read_eviction(Section& section, EvictionConfig& eviction) {
  section.string("action", eviction.action);
  section.strings("exec", eviction.exec);
  section.duration("timeout", eviction.timeout);
}

void read_export(Section& section, ExportConfig& export_) {
  section.string("textfile", export_.textfile);
  section.string("audit_log", export_.audit_log);
  section.size("audit_log_max_bytes", export_.audit_log_max_bytes);
}

template <typename Read>
void read_section(Loader& loader, Section& root, std::string_view name, Read read) {
  if (const toml::table* table = root.table(name)) {
    Section section(loader, *table, std::string(name));
    read(section);
    section.finish();
  }
}

ConfigLoad load_document(const toml::table& document) {
  Loader loader;
  ConfigLoad load;
  Config& config = load.config;
  Section root(loader, document, "");
  read_section(loader, root, "daemon", [&](Section& s) { read_daemon(s, config.daemon); });
  read_section(loader, root, "admin", [&](Section& s) { read_admin(s, config.admin); });
  read_section(loader, root, "policy", [&](Section& s) { read_policy(s, config.policy); });
  std::vector<const toml::table*> pools = root.array_of_tables("pool");
  for (std::size_t i = 0; i < pools.size(); ++i) {
    PoolConfig& pool = config.pools.emplace_back();
    if (pools[i] != nullptr) {
      Section section(loader, *pools[i], fmt::format("pool[{}]", i));
      read_pool(section, pool);
      section.finish();
    }
  }
  read_section(loader, root, "metrics",
               [&](Section& s) { read_metrics(loader, s, config.metrics); });
  read_section(loader, root, "actuator", [&](Section& s) { read_actuator(s, config.actuator); });
  read_section(loader, root, "eviction", [&](Section& s) { read_eviction(s, config.eviction); });
  read_section(loader, root, "export", [&](Section& s) { read_export(s, config.export_); });
  root.finish();

  loader.add_validation(validate_config(config));
  load.problems = loader.take_problems();
  return load;
}

}  // namespace

ConfigLoad load_config_string(std::string_view toml, std::string_view source_name) {
  toml::table document;
  try {
    document = toml::parse(toml, source_name);
  } catch (const toml::parse_error& error) {
    // toml++ stops at the first syntax error; nothing after it can be read reliably.
    ConfigLoad load;
    Place place = place_of(error.source());
    load.problems.push_back(
        ConfigProblem{"", std::string(error.description()), place.line, place.column});
    return load;
  }
  return load_document(document);
}

ConfigLoad load_config_file(const std::filesystem::path& path) {
  auto cannot_read = [&](int code) {
    ConfigLoad load;
    load.problems.push_back(
        ConfigProblem{"", make_error(code, "cannot read " + path.string()).message()});
    return load;
  };
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) {
    return cannot_read(errno);
  }
  std::string content;
  char buffer[8192];
  std::size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
    content.append(buffer, count);
  }
  if (std::ferror(file.get())) {
    return cannot_read(errno);
  }
  return load_config_string(content, path.string());
}

}  // namespace nb::config
