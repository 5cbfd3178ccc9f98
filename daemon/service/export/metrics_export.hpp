#pragma once
// The Prometheus text exposition of what the daemon knows (the `metrics` admin command; the
// textfile exporter writes the same text). All metric names live in this one file.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "actuator/job_options.hpp"
#include "actuator/migration_report.hpp"
#include "core/decision.hpp"
#include "core/history.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"
#include "daemon/metrics/baseline_tracker.hpp"
#include "daemon/metrics/provider.hpp"
#include "daemon/rounds/round_record.hpp"

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

// What the loop thread was doing when it caught an exception (see contained.hpp).
enum class Activity { round, job_done, reload };
std::string_view to_string(Activity activity);

// Totals since the daemon started. Every key a closed set of values can take starts at zero, so
// that rate() and increase() see the first event as an increase.
struct DaemonCounters {
  std::map<rounds::RoundOutcome, std::uint64_t> rounds;
  std::map<std::pair<NodeId, NodeId>, Bytes> migrated_bytes;  // (source, dest)
  std::map<actuator::PageOrder, Bytes> migration_bytes_by_order{{actuator::PageOrder::hot_first, 0},
                                                                {actuator::PageOrder::address, 0}};
  actuator::OutcomeCounts pages_failed;            // its moved and already_on_destination stay 0
  std::map<std::string, std::uint64_t> evictions;  // by action: the registry's names
  std::map<rounds::EffectResult, std::uint64_t> effects{{rounds::EffectResult::improved, 0},
                                                        {rounds::EffectResult::not_improved, 0},
                                                        {rounds::EffectResult::unknown, 0}};
  std::map<Activity, std::uint64_t> internal_errors{
      {Activity::round, 0}, {Activity::job_done, 0}, {Activity::reload, 0}};
  std::map<actuator::StopReason, std::uint64_t> jobs{
      {actuator::StopReason::completed, 0},      {actuator::StopReason::budget_met, 0},
      {actuator::StopReason::cancelled, 0},      {actuator::StopReason::deadline, 0},
      {actuator::StopReason::no_destination, 0}, {actuator::StopReason::nothing_to_move, 0}};
  Histogram job_duration{{0.1, 0.5, 1, 5, 10, 30, 60, 300}};
  // The longest move_pages call of each process a job touched (the report keeps no other).
  Histogram move_call_duration{{0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1}};

  void add_report(const actuator::MigrationReport& report);
};

struct ProviderState {
  metrics::Metric metric = metrics::Metric::read_latency;
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
