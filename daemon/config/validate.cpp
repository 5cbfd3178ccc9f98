#include "daemon/config/validate.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <type_traits>
#include <utility>

#include "base/parse_units.hpp"
#include "daemon/config/checker.hpp"
#include "daemon/config/keys.hpp"

namespace nb::config {
namespace {

// The longest path a sockaddr_un holds with its terminating NUL.
constexpr std::size_t kMaxSocketPathBytes = 107;

std::string indexed(std::string_view key, std::size_t index) {
  return fmt::format("{}[{}]", key, index);
}

// Two [policy] keys where `lower` must not exceed `upper` (or, when strict, must stay below it).
// The problem is reported on the key the user wrote, so that a file setting only
// reclaim_round_max_bytes is told about that key, the other's default, and what to change; when
// both or neither were written, on `lower`.
struct Ordered {
  std::string_view lower;
  std::string lower_value;
  std::string_view upper;
  std::string upper_value;
  bool strict = false;
};

void report_order(const Ordered& pair, const WrittenKey& written, Checker& check) {
  const std::string lower_key = fmt::format("policy.{}", pair.lower);
  const std::string upper_key = fmt::format("policy.{}", pair.upper);
  const bool lower_written = written(lower_key);
  const bool upper_written = written(upper_key);
  if (upper_written && !lower_written) {
    check.fail(upper_key,
               fmt::format("must be {} {} (its default, {}); raise it, or set {} {} {}",
                           pair.strict ? "above" : "at least", pair.lower, pair.lower_value,
                           pair.lower, pair.strict ? "below" : "at or below", pair.upper_value));
    return;
  }
  const std::string upper_value =
      upper_written ? pair.upper_value : fmt::format("its default, {}", pair.upper_value);
  check.fail(lower_key, fmt::format("must {} {} ({}); lower it, or raise {}",
                                    pair.strict ? "be below" : "not exceed", pair.upper,
                                    upper_value, pair.upper));
}

auto usable = [](double value) { return std::isfinite(value) && value > 0; };

void grace_within_force(const core::PolicyConfig& policy, const WrittenKey& written,
                        Checker& check) {
  if (usable(policy.grace_read_latency_ns) && usable(policy.force_read_latency_ns) &&
      policy.grace_read_latency_ns > policy.force_read_latency_ns) {
    report_order({"grace_read_latency_ns", fmt::format("{}", policy.grace_read_latency_ns),
                  "force_read_latency_ns", fmt::format("{}", policy.force_read_latency_ns)},
                 written, check);
  }
}

// A ratio of 1 would call a node at its own idle latency pressured; grace above force would make
// grace unreachable.
void latency_ratios_ordered(const core::PolicyConfig& policy, const WrittenKey& written,
                            Checker& check) {
  if (!usable(policy.grace_latency_ratio)) {
    return;
  }
  if (policy.grace_latency_ratio <= 1) {
    check.fail("policy.grace_latency_ratio",
               fmt::format("must be above 1, got {}", policy.grace_latency_ratio));
  } else if (usable(policy.force_latency_ratio) &&
             policy.grace_latency_ratio > policy.force_latency_ratio) {
    report_order({"grace_latency_ratio", fmt::format("{}", policy.grace_latency_ratio),
                  "force_latency_ratio", fmt::format("{}", policy.force_latency_ratio)},
                 written, check);
  }
}

void medium_below_high(const core::PolicyConfig& policy, const WrittenKey& written,
                       Checker& check) {
  auto ratio = [](double value) { return value > 0 && value <= 1; };
  if (ratio(policy.bandwidth_high_ratio) && ratio(policy.bandwidth_medium_ratio) &&
      policy.bandwidth_medium_ratio >= policy.bandwidth_high_ratio) {
    report_order({"bandwidth_medium_ratio", fmt::format("{}", policy.bandwidth_medium_ratio),
                  "bandwidth_high_ratio", fmt::format("{}", policy.bandwidth_high_ratio),
                  /*strict=*/true},
                 written, check);
  }
}

void minimums_within_maximums(const core::PolicyConfig& policy, const WrittenKey& written,
                              Checker& check) {
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
  for (const Bound& bound : bounds) {
    if (bound.min >= 0 && bound.max >= 0 && bound.min > bound.max) {
      report_order(
          {bound.min_key, exact_size_text(bound.min), bound.max_key, exact_size_text(bound.max)},
          written, check);
    }
  }
}

void supported_pools_named(const core::PolicyConfig& policy, Checker& check) {
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
}

void validate_policy_into(const core::PolicyConfig& policy, const WrittenKey& written,
                          Checker& check) {
  auto with_written = [&](auto rule) {
    return [&written, rule](const core::PolicyConfig& p, Checker& c) { rule(p, written, c); };
  };
  check_keys(policy_keys(), policy, "policy", check,
             {{"force_read_latency_ns", with_written(grace_within_force)},
              {"force_latency_ratio", with_written(latency_ratios_ordered)},
              {"bandwidth_medium_ratio", with_written(medium_below_high)},
              {"reclaim_round_enough_bytes", with_written(minimums_within_maximums)},
              {"supported_pools", supported_pools_named}});
}

// DAMON needs 20 aggregations of at least 5 ms in the window.
void hotness_window_fits(const ActuatorConfig& actuator, Checker& check) {
  constexpr Duration kShortestWindow{100};
  if (actuator.hotness_window.count() > 0 && actuator.hotness_window < kShortestWindow) {
    check.fail("actuator.hotness_window",
               fmt::format("must be at least {}", exact_duration_text(kShortestWindow)));
  }
}

void socket_path_fits(const AdminConfig& admin, Checker& check) {
  if (admin.socket.size() > kMaxSocketPathBytes) {
    check.fail("admin.socket", fmt::format("must be at most {} bytes long (the limit of a Unix "
                                           "socket address)",
                                           kMaxSocketPathBytes));
  }
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

void validate_metrics(const MetricsConfig& metrics, const ExtensionNames& names, Checker& check) {
  check_keys(metrics_keys(), metrics, "metrics", check,
             {{"latency",
               [&](const MetricsConfig& m, Checker& c) {
                 c.one_of("metrics.latency", m.latency, names.latency_providers);
               }},
              {"bandwidth", [&](const MetricsConfig& m, Checker& c) {
                 c.one_of("metrics.bandwidth", m.bandwidth, names.bandwidth_providers);
               }}});
  std::string_view file_user = metrics.latency == "file"     ? "metrics.latency"
                               : metrics.bandwidth == "file" ? "metrics.bandwidth"
                                                             : "";
  auto file_required = [&](const FileProviderConfig& file, Checker& c) {
    if (!file_user.empty() && file.path.empty()) {
      c.fail("metrics.file.path", fmt::format("required when {} = \"file\"", file_user));
    }
  };
  for_each_metrics_section(metrics, [&](std::string_view name, auto keys, const auto& section) {
    std::string prefix = "metrics." + std::string(name);
    if constexpr (std::is_same_v<std::decay_t<decltype(section)>, FileProviderConfig>) {
      check_keys(keys, section, prefix, check, {{"path", file_required}});
    } else {
      check_keys(keys, section, prefix, check);
    }
  });
}

// Relative thresholds wait for min_samples readings in the window: a window that holds fewer
// at this interval, or more than a node keeps, never calibrates, and pressure is never judged.
// Checked where the baseline is used: threshold_mode = "relative", or "auto" with the baseline
// configured (whether auto learns one depends on the provider that answers, which the file alone
// does not tell). Reported on the key the user wrote (the window, min_samples, then the interval).
void baseline_can_calibrate(const Config& config, const WrittenKey& written, Checker& check) {
  const BaselineConfig& baseline = config.metrics.baseline;
  const Duration interval = config.daemon.interval;
  const core::ThresholdMode mode = config.policy.threshold_mode;
  const bool baseline_set =
      written("metrics.baseline.window") || written("metrics.baseline.min_samples");
  if (mode == core::ThresholdMode::absolute ||
      (mode == core::ThresholdMode::automatic && !baseline_set)) {
    return;
  }
  if (baseline.min_samples <= 0 || baseline.window.count() <= 0 || interval.count() <= 0) {
    return;
  }
  const auto wanted = static_cast<std::size_t>(baseline.min_samples);
  if (wanted > kMaxBaselineReadings) {
    check.fail("metrics.baseline.min_samples",
               fmt::format("must not exceed {}, the readings a node keeps: the baseline would "
                           "never calibrate",
                           kMaxBaselineReadings));
    return;
  }
  const auto held = static_cast<std::size_t>(baseline.window / interval);
  if (held >= wanted) {
    return;
  }
  const std::string why = fmt::format(
      "window {} at [daemon] interval {} holds {} readings, fewer than min_samples {}: the "
      "baseline would never calibrate",
      exact_duration_text(baseline.window), exact_duration_text(interval), held, wanted);
  const Duration enough = interval * static_cast<Duration::rep>(wanted);
  if (written("metrics.baseline.window") ||
      (!written("metrics.baseline.min_samples") && !written("daemon.interval"))) {
    check.fail("metrics.baseline.window",
               fmt::format("{}; make it at least {}", why, exact_duration_text(enough)));
  } else if (written("metrics.baseline.min_samples")) {
    check.fail("metrics.baseline.min_samples",
               fmt::format("{}; lower it to {} or lengthen the window", why, held));
  } else {
    check.fail("daemon.interval",
               fmt::format("{}; shorten the interval or lengthen the window", why));
  }
}

void exec_argv_usable(const EvictionConfig& eviction, Checker& check) {
  if (eviction.action == "exec" && eviction.exec.empty()) {
    check.fail("eviction.exec", "required when eviction.action = \"exec\": the program's argv");
  }
  if (!eviction.exec.empty() &&
      (eviction.exec.front().empty() || eviction.exec.front()[0] != '/')) {
    // No shell and no PATH search: the program is exactly the file named.
    check.fail("eviction.exec[0]", "must be an absolute path");
  }
}

void validate_eviction(const EvictionConfig& eviction, const ExtensionNames& names,
                       Checker& check) {
  check_keys(eviction_keys(), eviction, "eviction", check,
             {{"action",
               [&](const EvictionConfig& e, Checker& c) {
                 c.one_of("eviction.action", e.action, names.eviction_actions);
               }},
              {"exec", exec_argv_usable}});
}

}  // namespace

bool every_key_written(std::string_view) {
  return true;
}

std::vector<ConfigProblem> validate_config(const Config& config, const ExtensionNames& names,
                                           const WrittenKey& written) {
  std::vector<ConfigProblem> problems;
  Checker check(problems);
  check_keys(daemon_keys(), config.daemon, "daemon", check);
  check_keys(admin_keys(), config.admin, "admin", check, {{"socket", socket_path_fits}});
  validate_policy_into(config.policy, written, check);
  validate_pools(config.pools, check);
  validate_metrics(config.metrics, names, check);
  baseline_can_calibrate(config, written, check);
  check_keys(actuator_keys(), config.actuator, "actuator", check,
             {{"hotness_window", hotness_window_fits}});
  validate_eviction(config.eviction, names, check);
  check_keys(export_keys(), config.export_, "export", check);
  return problems;
}

std::vector<ConfigProblem> validate_policy(const core::PolicyConfig& policy,
                                           const WrittenKey& written) {
  std::vector<ConfigProblem> problems;
  Checker check(problems);
  validate_policy_into(policy, written, check);
  return problems;
}

std::optional<std::string> baseline_window_note(const Config& config) {
  const Duration interval = config.daemon.interval;
  const Duration window = config.metrics.baseline.window;
  if (interval.count() <= 0 || window.count() <= 0 ||
      window / interval <= static_cast<Duration::rep>(kMaxBaselineReadings)) {
    return std::nullopt;
  }
  return fmt::format(
      "[metrics.baseline] window {} at [daemon] interval {} would hold {} readings; a node keeps "
      "{}, so the baseline is learned over the last {}",
      exact_duration_text(window), exact_duration_text(interval), window / interval,
      kMaxBaselineReadings,
      exact_duration_text(interval * static_cast<Duration::rep>(kMaxBaselineReadings)));
}

bool is_valid_log_level(std::string_view level) {
  return is_one_of(level, log_levels());
}

}  // namespace nb::config
