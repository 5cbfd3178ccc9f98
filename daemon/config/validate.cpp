#include "daemon/config/validate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "base/parse_units.hpp"

namespace nb::config {
namespace {

// The longest path a sockaddr_un holds with its terminating NUL.
constexpr std::size_t kMaxSocketPathBytes = 107;

constexpr std::array<std::string_view, 7> kLogLevels{"trace", "debug",    "info", "warn",
                                                     "error", "critical", "off"};
constexpr std::array<std::string_view, 5> kLatencyProviders{"auto", "perf", "probe", "file",
                                                            "none"};
constexpr std::array<std::string_view, 5> kBandwidthProviders{"auto", "perf", "resctrl", "file",
                                                              "none"};
constexpr std::array<std::string_view, 3> kFileFormats{"auto", "json", "prometheus"};
constexpr std::array<std::string_view, 4> kEvictionActions{"none", "freeze", "kill", "exec"};

template <std::size_t N>
bool is_one_of(std::string_view value, const std::array<std::string_view, N>& allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

template <std::size_t N>
std::string one_of_message(const std::array<std::string_view, N>& allowed) {
  return fmt::format("must be one of {}", fmt::join(allowed, ", "));
}

class Checker {
 public:
  explicit Checker(std::vector<ConfigProblem>& problems) : problems_(problems) {}

  void fail(std::string key, std::string message) {
    problems_.push_back(ConfigProblem{std::move(key), std::move(message)});
  }

  void positive(const std::string& key, Duration value) {
    if (value.count() <= 0) {
      fail(key, "must be positive");
    }
  }
  void not_negative(const std::string& key, Duration value) {
    if (value.count() < 0) {
      fail(key, "must not be negative");
    }
  }
  void positive(const std::string& key, Bytes value) {
    if (value <= 0) {
      fail(key, "must be positive");
    }
  }
  void not_negative(const std::string& key, Bytes value) {
    if (value < 0) {
      fail(key, "must not be negative");
    }
  }
  // Doubles also arrive as nan and inf from TOML; neither is a usable threshold.
  bool positive(const std::string& key, double value) {
    if (!std::isfinite(value) || value <= 0) {
      fail(key, "must be positive");
      return false;
    }
    return true;
  }
  bool not_negative(const std::string& key, double value) {
    if (!std::isfinite(value) || value < 0) {
      fail(key, "must not be negative");
      return false;
    }
    return true;
  }
  bool ratio(const std::string& key, double value) {
    if (!(value > 0 && value <= 1)) {
      fail(key, "must be in (0, 1]");
      return false;
    }
    return true;
  }
  template <std::size_t N>
  void one_of(const std::string& key, std::string_view value,
              const std::array<std::string_view, N>& allowed) {
    if (!is_one_of(value, allowed)) {
      fail(key, one_of_message(allowed));
    }
  }
  void absolute_path(const std::string& key, const std::string& path) {
    if (path.empty() || path.front() != '/') {
      fail(key, "must be an absolute path");
    }
  }
  // Empty switches the feature off.
  void absolute_path_or_empty(const std::string& key, const std::string& path) {
    if (!path.empty()) {
      absolute_path(key, path);
    }
  }

 private:
  std::vector<ConfigProblem>& problems_;
};

std::string indexed(std::string_view key, std::size_t index) {
  return fmt::format("{}[{}]", key, index);
}

void validate_policy_into(const core::PolicyConfig& policy, Checker& check) {
  bool grace_ok = check.positive("policy.grace_read_latency_ns", policy.grace_read_latency_ns);
  bool force_ok = check.positive("policy.force_read_latency_ns", policy.force_read_latency_ns);
  if (grace_ok && force_ok && policy.grace_read_latency_ns > policy.force_read_latency_ns) {
    check.fail(
        "policy.grace_read_latency_ns",
        fmt::format("must not exceed force_read_latency_ns ({})", policy.force_read_latency_ns));
  }
  check.not_negative("policy.grace_latency_gap_ns", policy.grace_latency_gap_ns);
  if (policy.grace_max_distance < 0) {
    check.fail("policy.grace_max_distance", "must not be negative");
  }
  check.ratio("policy.grace_gap_ratio", policy.grace_gap_ratio);
  check.ratio("policy.force_gap_ratio", policy.force_gap_ratio);
  bool high_ok = check.ratio("policy.bandwidth_high_ratio", policy.bandwidth_high_ratio);
  bool medium_ok = check.ratio("policy.bandwidth_medium_ratio", policy.bandwidth_medium_ratio);
  if (high_ok && medium_ok && policy.bandwidth_medium_ratio >= policy.bandwidth_high_ratio) {
    check.fail("policy.bandwidth_medium_ratio",
               fmt::format("must be below bandwidth_high_ratio ({})", policy.bandwidth_high_ratio));
  }

  struct Bound {
    std::string_view min_key;
    Bytes min;
    std::string_view max_key;
    Bytes max;
  };
  const std::array<Bound, 3> bounds{{
      {"container_min_bytes", policy.container_min_bytes, "container_max_bytes",
       policy.container_max_bytes},
      {"reclaim_container_min_bytes", policy.reclaim_container_min_bytes,
       "reclaim_container_max_bytes", policy.reclaim_container_max_bytes},
      {"reclaim_round_enough_bytes", policy.reclaim_round_enough_bytes, "reclaim_round_max_bytes",
       policy.reclaim_round_max_bytes},
  }};
  const std::array<std::pair<std::string_view, Bytes>, 7> sizes{{
      {"container_min_bytes", policy.container_min_bytes},
      {"container_max_bytes", policy.container_max_bytes},
      {"reclaim_container_min_bytes", policy.reclaim_container_min_bytes},
      {"reclaim_container_max_bytes", policy.reclaim_container_max_bytes},
      {"round_max_bytes", policy.round_max_bytes},
      {"reclaim_round_max_bytes", policy.reclaim_round_max_bytes},
      {"reclaim_round_enough_bytes", policy.reclaim_round_enough_bytes},
  }};
  for (const auto& [key, value] : sizes) {
    check.not_negative(fmt::format("policy.{}", key), value);
  }
  for (const Bound& bound : bounds) {
    if (bound.min >= 0 && bound.max >= 0 && bound.min > bound.max) {
      check.fail(fmt::format("policy.{}", bound.min_key),
                 fmt::format("must not exceed {} ({})", bound.max_key, exact_size_text(bound.max)));
    }
  }

  for (std::size_t i = 0; i < policy.supported_pools.size(); ++i) {
    const std::string& pool = policy.supported_pools[i];
    std::string key = indexed("policy.supported_pools", i);
    if (pool.empty()) {
      check.fail(key, "must not be empty");
    } else if (pool == policy.reclaim_pool) {
      // Its containers would be counted twice: once as reclaim, once as supported.
      check.fail(key, fmt::format("must not name the reclaim pool \"{}\"", pool));
    }
  }
  check.ratio("policy.migrate_threshold", policy.migrate_threshold);
  check.not_negative("policy.min_interval", policy.min_interval);
  check.not_negative("policy.ping_pong_window", policy.ping_pong_window);
}

void validate_daemon(const DaemonConfig& daemon, Checker& check) {
  check.positive("daemon.interval", daemon.interval);
  if (!is_valid_log_level(daemon.log_level)) {
    check.fail("daemon.log_level", one_of_message(kLogLevels));
  }
  check.absolute_path("daemon.state_dir", daemon.state_dir);
  check.absolute_path("daemon.lock_file", daemon.lock_file);
}

void validate_admin(const AdminConfig& admin, Checker& check) {
  check.absolute_path("admin.socket", admin.socket);
  if (admin.socket.size() > kMaxSocketPathBytes) {
    check.fail("admin.socket", fmt::format("must be at most {} bytes long (the limit of a Unix "
                                           "socket address)",
                                           kMaxSocketPathBytes));
  }
  if (admin.socket_mode > 0777) {
    check.fail("admin.socket_mode", "must be at most \"0777\"");
  }
  if (admin.max_clients < 1) {
    check.fail("admin.max_clients", "must be at least 1");
  }
  if (admin.max_request_bytes < kKiB) {
    check.fail("admin.max_request_bytes", "must be at least 1KiB");
  }
  check.positive("admin.idle_timeout", admin.idle_timeout);
}

void validate_pool(const PoolConfig& pool, const std::string& prefix, Checker& check) {
  if (pool.cgroups.empty()) {
    check.fail(prefix + ".cgroups", "must list at least one cgroup glob");
  }
  for (std::size_t j = 0; j < pool.cgroups.size(); ++j) {
    const std::string& glob = pool.cgroups[j];
    std::string key = indexed(prefix + ".cgroups", j);
    if (glob.empty()) {
      check.fail(key, "must not be empty");
    } else if (glob.front() == '/') {
      check.fail(key, "must be relative to the cgroup root (no leading /)");
    }
  }
  if (!pool.nodes) {
    return;
  }
  if (pool.nodes->empty()) {
    check.fail(prefix + ".nodes", "must list at least one node, or be \"auto\"");
  }
  std::set<NodeId> seen;
  for (std::size_t j = 0; j < pool.nodes->size(); ++j) {
    NodeId node = (*pool.nodes)[j];
    std::string key = indexed(prefix + ".nodes", j);
    if (node < 0) {
      check.fail(key, "must not be negative");
    } else if (!seen.insert(node).second) {
      check.fail(key, fmt::format("duplicate node {}", node));
    }
  }
}

void validate_pools(const std::vector<PoolConfig>& pools, Checker& check) {
  std::map<std::string, std::size_t> first_index;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    const PoolConfig& pool = pools[i];
    std::string prefix = indexed("pool", i);
    if (pool.name.empty()) {
      check.fail(prefix + ".name", "must not be empty");
    } else if (auto [it, inserted] = first_index.emplace(pool.name, i); !inserted) {
      check.fail(prefix + ".name", fmt::format("duplicate pool name \"{}\" (first at pool[{}])",
                                               pool.name, it->second));
    }
    validate_pool(pool, prefix, check);
  }
}

void validate_metrics(const MetricsConfig& metrics, Checker& check) {
  check.one_of("metrics.latency", metrics.latency, kLatencyProviders);
  check.one_of("metrics.bandwidth", metrics.bandwidth, kBandwidthProviders);

  const FileProviderConfig& file = metrics.file;
  std::string_view file_user = metrics.latency == "file"     ? "metrics.latency"
                               : metrics.bandwidth == "file" ? "metrics.bandwidth"
                                                             : "";
  if (!file_user.empty() && file.path.empty()) {
    check.fail("metrics.file.path", fmt::format("required when {} = \"file\"", file_user));
  } else {
    check.absolute_path_or_empty("metrics.file.path", file.path);
  }
  check.one_of("metrics.file.format", file.format, kFileFormats);
  check.positive("metrics.file.max_age", file.max_age);
  if (file.latency_metric.empty()) {
    check.fail("metrics.file.latency_metric", "must not be empty");
  }
  if (file.bandwidth_metric.empty()) {
    check.fail("metrics.file.bandwidth_metric", "must not be empty");
  }

  const ProbeProviderConfig& probe = metrics.probe;
  check.positive("metrics.probe.buffer_bytes", probe.buffer_bytes);
  if (probe.loads_per_sample < 1) {
    check.fail("metrics.probe.loads_per_sample", "must be at least 1");
  }
  check.positive("metrics.probe.sample_interval", probe.sample_interval);
  check.ratio("metrics.probe.cpu_budget", probe.cpu_budget);

  check.positive("metrics.perf.window", metrics.perf.window);
  check.positive("metrics.resctrl.window", metrics.resctrl.window);
}

void validate_actuator(const ActuatorConfig& actuator, Checker& check) {
  if (!std::isfinite(actuator.rate_limit_mib_per_s) || actuator.rate_limit_mib_per_s < 0) {
    check.fail("actuator.rate_limit", "must not be negative (0 = unlimited)");
  }
  check.positive("actuator.call_target", actuator.call_target);
  if (actuator.min_free_bytes) {
    check.not_negative("actuator.min_free_bytes", *actuator.min_free_bytes);
  }
  check.positive("actuator.job_deadline", actuator.job_deadline);
}

void validate_eviction(const EvictionConfig& eviction, Checker& check) {
  check.one_of("eviction.action", eviction.action, kEvictionActions);
  if (eviction.action == "exec" && eviction.exec.empty()) {
    check.fail("eviction.exec", "required when eviction.action = \"exec\": the program's argv");
  }
  if (!eviction.exec.empty() &&
      (eviction.exec.front().empty() || eviction.exec.front()[0] != '/')) {
    // No shell and no PATH search: the program is exactly the file named.
    check.fail("eviction.exec[0]", "must be an absolute path");
  }
  check.positive("eviction.timeout", eviction.timeout);
}

void validate_export(const ExportConfig& export_, Checker& check) {
  check.absolute_path_or_empty("export.textfile", export_.textfile);
  check.absolute_path_or_empty("export.audit_log", export_.audit_log);
  check.positive("export.audit_log_max_bytes", export_.audit_log_max_bytes);
}

}  // namespace

std::vector<ConfigProblem> validate_config(const Config& config) {
  std::vector<ConfigProblem> problems;
  Checker check(problems);
  validate_daemon(config.daemon, check);
  validate_admin(config.admin, check);
  validate_policy_into(config.policy, check);
  validate_pools(config.pools, check);
  validate_metrics(config.metrics, check);
  validate_actuator(config.actuator, check);
  validate_eviction(config.eviction, check);
  validate_export(config.export_, check);
  return problems;
}

std::vector<ConfigProblem> validate_policy(const core::PolicyConfig& policy) {
  std::vector<ConfigProblem> problems;
  Checker check(problems);
  validate_policy_into(policy, check);
  return problems;
}

bool is_valid_log_level(std::string_view level) {
  return is_one_of(level, kLogLevels);
}

}  // namespace nb::config
