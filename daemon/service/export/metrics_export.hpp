#pragma once
// The Prometheus text exposition of what the daemon knows (the `metrics` admin command; the
// textfile exporter writes the same text). All metric names live in this one file.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "actuator/job_options.hpp"
#include "actuator/migration_report.hpp"
#include "core/decision.hpp"
#include "core/history.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"
#include "daemon/metrics/baseline_tracker.hpp"

namespace nb::service {

class Histogram {
 public:
  explicit Histogram(std::vector<double> upper_bounds);
  void observe(double value);

  const std::vector<double>& upper_bounds() const { return upper_bounds_; }
  // Cumulative counts per bound, as Prometheus exposes them.
  std::vector<std::uint64_t> cumulative() const;
  double sum() const { return sum_; }
  std::uint64_t count() const { return count_; }

 private:
  std::vector<double> upper_bounds_;
  std::vector<std::uint64_t> counts_;
  double sum_ = 0;
  std::uint64_t count_ = 0;
};

// Totals since the daemon started.
struct DaemonCounters {
  std::map<std::string, std::uint64_t> rounds;                // by outcome
  std::map<std::pair<NodeId, NodeId>, Bytes> migrated_bytes;  // (source, dest)
  // By the order pages went in; both start at zero, as pages_failed's reasons do.
  std::map<std::string, Bytes> migration_bytes_by_order{{"hot_first", 0}, {"address", 0}};
  // Every reason starts at zero, so that rate() sees the first failure as an increase.
  std::map<std::string, std::int64_t> pages_failed{
      {"busy", 0}, {"no_memory", 0}, {"access_denied", 0}, {"unmapped", 0}, {"other", 0}};
  std::map<std::string, std::uint64_t> evictions;  // by action
  // Measured round effects by result; every result starts at zero, as pages_failed does.
  std::map<std::string, std::uint64_t> effects{
      {"improved", 0}, {"not_improved", 0}, {"unknown", 0}};
  // Exceptions the loop thread caught (see contained.hpp), by what it was doing.
  std::map<std::string, std::uint64_t> internal_errors{
      {"round", 0}, {"job_done", 0}, {"reload", 0}};
  // Migration jobs by why they stopped; every reason starts at zero, so that an alert on
  // increase(...{stop_reason="deadline"}) sees the first one.
  std::map<std::string, std::uint64_t> jobs{{"completed", 0},      {"budget_met", 0},
                                            {"cancelled", 0},      {"deadline", 0},
                                            {"no_destination", 0}, {"nothing_to_move", 0}};
  Histogram job_duration{{0.1, 0.5, 1, 5, 10, 30, 60, 300}};
  // The longest move_pages call of each process a job touched (the report keeps no other).
  Histogram move_call_duration{{0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1}};

  void add_report(const actuator::MigrationReport& report);
};

struct ProviderState {
  std::string metric;    // read_latency, bandwidth
  std::string provider;  // file, perf, ...; empty when none answered
  bool up = false;
  std::string reason;  // why it is down, or why earlier providers in an "auto" chain were
  // [metrics] latency or bandwidth as configured ("file", "auto", ...): the label of its one
  // numabalancer_provider_up series, which must not change when the provider goes down, so that
  // an alert on provider="file" sees the 0. "none" has no series.
  std::string configured;
};

struct MetricsView {
  const core::Snapshot* snapshot = nullptr;  // the last one, if any
  const core::Decision* decision = nullptr;  // the last one, if any
  std::vector<ProviderState> providers;
  const DaemonCounters* counters = nullptr;
  std::uint64_t log_messages_dropped = 0;             // by the logger's full queue
  std::vector<metrics::NodeBaseline> baselines = {};  // each node's, configured or learned
  // The policy in force and the kept history, for the strategy, the threshold mode in use and
  // each node's back-off; absent, none of those is written.
  const core::PolicyConfig* policy = nullptr;
  const core::History* history = nullptr;
  // The running migration job's progress; absent when none runs.
  std::optional<actuator::JobProgress> job = std::nullopt;
};

std::string render_prometheus(const MetricsView& view);

}  // namespace nb::service
