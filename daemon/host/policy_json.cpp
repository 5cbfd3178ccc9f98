#include "daemon/host/policy_json.hpp"

#include "base/parse_units.hpp"

namespace nb::host {

nlohmann::json policy_overrides_json(const core::PolicyConfig& policy) {
  return {
      {"grace_read_latency_ns", policy.grace_read_latency_ns},
      {"force_read_latency_ns", policy.force_read_latency_ns},
      {"grace_latency_gap_ns", policy.grace_latency_gap_ns},
      {"grace_max_distance", policy.grace_max_distance},
      {"grace_gap_ratio", policy.grace_gap_ratio},
      {"force_gap_ratio", policy.force_gap_ratio},
      {"bandwidth_high_ratio", policy.bandwidth_high_ratio},
      {"bandwidth_medium_ratio", policy.bandwidth_medium_ratio},
      {"container_min_bytes", exact_size_text(policy.container_min_bytes)},
      {"container_max_bytes", exact_size_text(policy.container_max_bytes)},
      {"reclaim_container_min_bytes", exact_size_text(policy.reclaim_container_min_bytes)},
      {"reclaim_container_max_bytes", exact_size_text(policy.reclaim_container_max_bytes)},
      {"round_max_bytes", exact_size_text(policy.round_max_bytes)},
      {"reclaim_round_max_bytes", exact_size_text(policy.reclaim_round_max_bytes)},
      {"reclaim_round_enough_bytes", exact_size_text(policy.reclaim_round_enough_bytes)},
      {"supported_pools", policy.supported_pools},
      {"reclaim_pool", policy.reclaim_pool},
      {"migrate_threshold", policy.migrate_threshold},
      {"min_interval", exact_duration_text(policy.min_interval)},
      {"ping_pong_window", exact_duration_text(policy.ping_pong_window)},
  };
}

}  // namespace nb::host
