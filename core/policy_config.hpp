#pragma once
// The [policy] section: every threshold of the decision. Defaults are the seed's, tuned for Intel
// memory-controller read-queue latency; other latency kinds need other thresholds (see README).

#include <string>
#include <vector>

#include "base/units.hpp"
#include "core/strategy.hpp"
#include "core/threshold_mode.hpp"

namespace nb::core {

struct PolicyConfig {
  Strategy strategy = Strategy::katalyst;
  // equalize: nodes whose loaded latencies are within this fraction of each other are even.
  double equalize_deadband = 0.05;
  ThresholdMode threshold_mode = ThresholdMode::automatic;
  double grace_read_latency_ns = 70;
  double force_read_latency_ns = 80;
  double grace_latency_gap_ns = 40;
  double grace_latency_ratio = 1.3;
  double force_latency_ratio = 1.5;
  double grace_latency_gap_ratio = 0.4;
  int grace_max_distance = 19;
  double grace_gap_ratio = 0.15;
  double force_gap_ratio = 0.2;
  double bandwidth_high_ratio = 0.8;
  double bandwidth_medium_ratio = 0.5;
  Bytes container_min_bytes = 128 * kMiB;
  Bytes container_max_bytes = 10 * kGiB;
  Bytes reclaim_container_min_bytes = 128 * kMiB;
  Bytes reclaim_container_max_bytes = 15 * kGiB;
  Bytes round_max_bytes = 12 * kGiB;
  Bytes reclaim_round_max_bytes = 15 * kGiB;
  Bytes reclaim_round_enough_bytes = 3 * kGiB;
  std::vector<std::string> supported_pools = {"share"};
  std::string reclaim_pool = "reclaim";
  double migrate_threshold = 0.7;
  Duration min_interval = std::chrono::seconds(30);
  Duration ping_pong_window = std::chrono::minutes(15);
  // Closing the loop: a round's effect is measured effect_delay after its job finished; it
  // improved when the hot latency fell by min_improvement. After backoff_after rounds in a row
  // off one node did not improve, the wait doubles per further one up to max_backoff. 0 turns
  // back-off off.
  Duration effect_delay = std::chrono::seconds(60);
  double min_improvement = 0.1;
  int backoff_after = 3;
  Duration max_backoff = std::chrono::minutes(30);
};

}  // namespace nb::core
