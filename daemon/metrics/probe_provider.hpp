#pragma once
// The `probe` provider (latency only): measures each node's memory by timing a pointer chase
// over a buffer bound to that node (ChaseBuffer), from a thread allowed only on the CPUs of the
// node itself or, for a CPU-less memory-only node, of the nearest node that has CPUs (smallest
// distance, then lowest id; CPUs outside the daemon's own affinity are left out).
//
// One sampler thread, started by the first read(), probes every node in turn each round:
// loads_per_sample dependent loads per node, timed after an untimed chase of the same length
// that warms the TLB and page-walk caches the pause let go cold (on this project's VM the cold
// chase reads 2-3x the warm one), a round every sample_interval at most, and never
// more CPU than cpu_budget of one core per probed node (ProbeBudget; the buffers' set-up counts
// too and is paid back by a longer first pause). A node's value is the median of its last five
// samples, so a sample stretched by an interrupt or a preemption does not move it.
//
// Latency kind: load_to_use, the ns a dependent load takes from issue to data, TLB and cache
// misses included: higher than the memory-controller queue latency the seed's thresholds were
// tuned on. Idle local DRAM reads typically 80-130 ns, remote 130-200 ns; thresholds belong at
// about 1.5x (grace) and 2x (force) a node's idle reading on the host itself (README).
//
// The first read() waits for the first round (the buffers' set-up, well under a second per
// 64 MiB node) up to 30 s; a node whose buffer cannot be bound to it (no memory, not allowed by
// the cpuset) is absent, with the reason given when no node could be probed.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/snapshot.hpp"
#include "daemon/config/config.hpp"
#include "daemon/metrics/provider.hpp"

namespace nb::metrics {

// The node whose CPUs probe `node`'s memory: itself if it has CPUs, else the nearest with CPUs.
std::optional<NodeId> probing_node(NodeId node, const std::vector<core::Node>& topology);

class ProbeProvider final : public Provider {
 public:
  struct Stats {
    int rounds = 0;
    std::chrono::nanoseconds setup_cpu{0};  // building the buffers, the first round's share
    std::chrono::nanoseconds cpu_used{0};   // everything the sampler thread ran, set-up included
    double used_fraction = 0;               // cpu_used over wall time since the sampler started
  };

  ProbeProvider(std::vector<core::Node> topology, config::ProbeProviderConfig config);
  ~ProbeProvider() override;
  ProbeProvider(const ProbeProvider&) = delete;
  ProbeProvider& operator=(const ProbeProvider&) = delete;

  std::string_view name() const override { return "probe"; }
  Metric metric() const override { return Metric::read_latency; }
  std::optional<LatencyKind> latency_kind() const override { return LatencyKind::load_to_use; }
  Result<NodeValues> read(TimePoint now) override;

  Stats stats() const;

 private:
  void run(std::stop_token stop);

  std::vector<core::Node> topology_;
  config::ProbeProviderConfig config_;
  std::vector<int> allowed_cpus_;

  mutable std::mutex mutex_;
  std::condition_variable_any changed_;
  std::map<NodeId, std::deque<double>> recent_;
  std::map<NodeId, std::string> failures_;
  std::string sampler_failure_;  // set if the sampler died; its old samples no longer count
  Stats stats_;
  std::jthread sampler_;  // last member: stopped and joined before the state it uses goes
};

}  // namespace nb::metrics
