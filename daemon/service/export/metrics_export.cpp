#include "daemon/service/export/metrics_export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "core/backoff.hpp"
#include "core/threshold_choice.hpp"

namespace nb::service {

Histogram::Histogram(std::vector<double> upper_bounds)
    : upper_bounds_(std::move(upper_bounds)), counts_(upper_bounds_.size(), 0) {}

void Histogram::observe(double value) {
  auto bucket = std::lower_bound(upper_bounds_.begin(), upper_bounds_.end(), value);
  if (bucket != upper_bounds_.end()) {
    ++counts_[static_cast<std::size_t>(bucket - upper_bounds_.begin())];
  }
  sum_ += value;
  ++count_;
}

std::vector<std::uint64_t> Histogram::cumulative() const {
  std::vector<std::uint64_t> out;
  std::uint64_t running = 0;
  for (auto count : counts_) {
    running += count;
    out.push_back(running);
  }
  return out;
}

std::string_view to_string(Activity activity) {
  switch (activity) {
    case Activity::round:
      return "round";
    case Activity::job_done:
      return "job_done";
    case Activity::reload:
      return "reload";
  }
  return "round";
}

void DaemonCounters::add_report(const actuator::MigrationReport& report) {
  if (!report.dry_run) {
    for (const auto& [dest, bytes] : report.bytes_moved_to()) {
      migrated_bytes[{report.source_node, dest}] += bytes;
    }
    for (auto& [order, bytes] : migration_bytes_by_order) {
      bytes += report.bytes_moved_in(order);
    }
    auto outcomes = report.outcomes();
    pages_failed.busy += outcomes.busy;
    pages_failed.no_memory += outcomes.no_memory;
    pages_failed.access_denied += outcomes.access_denied;
    pages_failed.unmapped += outcomes.unmapped;
    pages_failed.other += outcomes.other;
  }
  ++jobs[report.stop_reason];
  job_duration.observe(std::chrono::duration<double>(report.elapsed).count());
  for (const auto& container : report.containers) {
    for (const auto& process : container.processes) {
      if (process.syscalls > 0) {
        move_call_duration.observe(std::chrono::duration<double>(process.longest_call).count());
      }
    }
  }
}

namespace {

// The daemon keeps latencies in ns and bandwidths in GB/s; Prometheus wants base units.
constexpr double kNanosecondsPerSecond = 1e9;
constexpr double kBytesPerGigabyte = 1e9;

// Label values escape backslash, quote and newline (exposition format 0.0.4).
std::string escape(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

// HELP text escapes only backslash and newline.
std::string escape_help(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

// Go's spelling, which Prometheus parses: fmt would write "inf" and "nan".
std::string number(double value) {
  if (std::isnan(value)) {
    return "NaN";
  }
  if (std::isinf(value)) {
    return value > 0 ? "+Inf" : "-Inf";
  }
  return fmt::format("{}", value);
}

class Writer {
 public:
  void family(std::string_view name, std::string_view type, std::string_view help) {
    out_ += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, escape_help(help), name, type);
  }
  void sample(std::string_view name, std::string_view labels, double value) {
    if (labels.empty()) {
      out_ += fmt::format("{} {}\n", name, number(value));
    } else {
      out_ += fmt::format("{}{{{}}} {}\n", name, labels, number(value));
    }
  }
  void histogram(std::string_view name, std::string_view help, const Histogram& histogram) {
    family(name, "histogram", help);
    auto cumulative = histogram.cumulative();
    for (std::size_t i = 0; i < cumulative.size(); ++i) {
      sample(fmt::format("{}_bucket", name),
             fmt::format("le=\"{}\"", number(histogram.upper_bounds()[i])),
             static_cast<double>(cumulative[i]));
    }
    sample(fmt::format("{}_bucket", name), "le=\"+Inf\"", static_cast<double>(histogram.count()));
    sample(fmt::format("{}_sum", name), "", histogram.sum());
    sample(fmt::format("{}_count", name), "", static_cast<double>(histogram.count()));
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

std::string provider_of(const MetricsView& view, metrics::Metric metric) {
  for (const auto& state : view.providers) {
    if (state.metric == metric) {
      return state.provider;
    }
  }
  return "";
}

void write_node_metrics(Writer& w, const MetricsView& view) {
  const auto& nodes = view.snapshot->nodes;
  auto latency_provider = escape(provider_of(view, metrics::Metric::read_latency));
  auto bandwidth_provider = escape(provider_of(view, metrics::Metric::bandwidth));
  w.family("numabalancer_node_read_latency_seconds", "gauge",
           "Memory read latency of the node in seconds, as the provider measures it.");
  for (const auto& node : nodes) {
    if (node.read_latency_ns) {
      w.sample("numabalancer_node_read_latency_seconds",
               fmt::format("node=\"{}\",provider=\"{}\"", node.id, latency_provider),
               *node.read_latency_ns / kNanosecondsPerSecond);
    }
  }
  w.family("numabalancer_node_bandwidth_bytes_per_second", "gauge",
           "Memory bandwidth used on the node in bytes per second.");
  for (const auto& node : nodes) {
    if (node.bandwidth_gbps) {
      w.sample("numabalancer_node_bandwidth_bytes_per_second",
               fmt::format("node=\"{}\",provider=\"{}\"", node.id, bandwidth_provider),
               *node.bandwidth_gbps * kBytesPerGigabyte);
    }
  }
  w.family("numabalancer_node_anon_bytes", "gauge",
           "Anonymous memory of the watched containers on the node, in bytes.");
  std::map<NodeId, Bytes> anon;
  for (const auto& node : nodes) {
    anon[node.id] = 0;
  }
  for (const auto& container : view.snapshot->containers) {
    for (const auto& [node, bytes] : container.anon_bytes) {
      anon[node] += bytes;
    }
  }
  for (const auto& [node, bytes] : anon) {
    w.sample("numabalancer_node_anon_bytes", fmt::format("node=\"{}\"", node),
             static_cast<double>(bytes));
  }
}

// Only nodes that have a baseline get the value; every known node gets its count of readings, so
// that a dashboard shows learning progress before the first baseline exists.
void write_baselines(Writer& w, const std::vector<metrics::NodeBaseline>& baselines) {
  w.family("numabalancer_node_baseline_read_latency_seconds", "gauge",
           "The node's read latency with little load, configured or learned, in seconds.");
  for (const auto& baseline : baselines) {
    if (baseline.read_latency_ns && baseline.source) {
      w.sample("numabalancer_node_baseline_read_latency_seconds",
               fmt::format("node=\"{}\",source=\"{}\"", baseline.node,
                           metrics::to_string(*baseline.source)),
               *baseline.read_latency_ns / kNanosecondsPerSecond);
    }
  }
  w.family("numabalancer_node_baseline_samples", "gauge",
           "Latency readings in the node's baseline window.");
  for (const auto& baseline : baselines) {
    w.sample("numabalancer_node_baseline_samples", fmt::format("node=\"{}\"", baseline.node),
             static_cast<double>(baseline.samples));
  }
  w.family("numabalancer_node_baseline_samples_needed", "gauge",
           "Readings the node still needs before it has a baseline; 0 once calibrated.");
  for (const auto& baseline : baselines) {
    w.sample("numabalancer_node_baseline_samples_needed", fmt::format("node=\"{}\"", baseline.node),
             static_cast<double>(baseline.samples_needed));
  }
}

// The strategy and the threshold mode in use (auto resolved by the snapshot's latency kind), and
// each node's back-off as of the last snapshot.
void write_policy(Writer& w, const MetricsView& view) {
  const core::PolicyConfig& policy = *view.policy;
  const core::LatencyKind kind = view.snapshot != nullptr
                                     ? view.snapshot->latency_kind()
                                     : core::LatencyKind::memory_controller_queue;
  const core::ThresholdChoice thresholds = core::choose_threshold_mode(policy.threshold_mode, kind);
  w.family("numabalancer_threshold_read_latency_seconds", "gauge",
           "Absolute thresholds: the read latency above which a node is under pressure.");
  w.sample("numabalancer_threshold_read_latency_seconds", "level=\"grace\"",
           policy.grace_read_latency_ns / kNanosecondsPerSecond);
  w.sample("numabalancer_threshold_read_latency_seconds", "level=\"force\"",
           policy.force_read_latency_ns / kNanosecondsPerSecond);
  w.family(
      "numabalancer_threshold_latency_ratio", "gauge",
      "Relative thresholds: the multiple of a node's baseline above which it is under pressure.");
  w.sample("numabalancer_threshold_latency_ratio", "level=\"grace\"", policy.grace_latency_ratio);
  w.sample("numabalancer_threshold_latency_ratio", "level=\"force\"", policy.force_latency_ratio);
  w.family("numabalancer_policy_info", "gauge",
           "1, labelled with the strategy and the threshold mode in use (auto resolved).");
  w.sample("numabalancer_policy_info",
           fmt::format("strategy=\"{}\",threshold_mode=\"{}\"", core::to_string(policy.strategy),
                       core::to_string(thresholds.mode)),
           1);
  if (view.snapshot == nullptr || view.history == nullptr) {
    return;
  }
  w.family("numabalancer_backoff_active", "gauge",
           "1 while back-off holds rounds off the node (moving memory has not helped), else 0.");
  std::vector<std::pair<NodeId, std::optional<core::Backoff>>> states;
  for (const auto& node : view.snapshot->nodes) {
    auto backoff = core::backoff_for(*view.history, node.id, policy);
    if (backoff && view.snapshot->time >= backoff->until()) {
      backoff.reset();
    }
    states.emplace_back(node.id, backoff);
    w.sample("numabalancer_backoff_active", fmt::format("node=\"{}\"", node.id), backoff ? 1 : 0);
  }
  w.family("numabalancer_backoff_until_timestamp_seconds", "gauge",
           "While back-off holds rounds off the node: when it ends, in seconds since the epoch.");
  for (const auto& [node, backoff] : states) {
    if (backoff) {
      w.sample("numabalancer_backoff_until_timestamp_seconds", fmt::format("node=\"{}\"", node),
               std::chrono::duration<double>(backoff->until().time_since_epoch()).count());
    }
  }
}

void write_counters(Writer& w, const DaemonCounters& c) {
  w.family("numabalancer_rounds_total", "counter", "Rounds run, by outcome.");
  for (const auto& [outcome, count] : c.rounds) {
    w.sample("numabalancer_rounds_total", fmt::format("outcome=\"{}\"", rounds::to_string(outcome)),
             static_cast<double>(count));
  }
  w.family(
      "numabalancer_jobs_total", "counter",
      "Migration jobs of rounds and of migrate, by why they stopped (deadline: job_deadline).");
  for (const auto& [reason, count] : c.jobs) {
    w.sample("numabalancer_jobs_total",
             fmt::format("stop_reason=\"{}\"", actuator::to_string(reason)),
             static_cast<double>(count));
  }
  w.family("numabalancer_migrated_bytes_total", "counter",
           "Bytes moved by migration jobs, by source and destination node.");
  for (const auto& [nodes, bytes] : c.migrated_bytes) {
    w.sample("numabalancer_migrated_bytes_total",
             fmt::format("source=\"{}\",dest=\"{}\"", nodes.first, nodes.second),
             static_cast<double>(bytes));
  }
  w.family("numabalancer_migration_bytes_total", "counter",
           "Bytes moved by migration jobs, by the order their pages went in.");
  for (const auto& [order, bytes] : c.migration_bytes_by_order) {
    w.sample("numabalancer_migration_bytes_total",
             fmt::format("order=\"{}\"", actuator::to_string(order)), static_cast<double>(bytes));
  }
  w.family("numabalancer_migration_pages_failed_total", "counter",
           "Pages a migration job could not move, by reason.");
  const std::pair<const char*, std::int64_t> failed[] = {
      {"access_denied", c.pages_failed.access_denied},
      {"busy", c.pages_failed.busy},
      {"no_memory", c.pages_failed.no_memory},
      {"other", c.pages_failed.other},
      {"unmapped", c.pages_failed.unmapped}};
  for (const auto& [reason, count] : failed) {
    w.sample("numabalancer_migration_pages_failed_total", fmt::format("reason=\"{}\"", reason),
             static_cast<double>(count));
  }
  w.family("numabalancer_evictions_total", "counter", "Containers evicted, by action.");
  for (const auto& [action, count] : c.evictions) {
    w.sample("numabalancer_evictions_total", fmt::format("action=\"{}\"", escape(action)),
             static_cast<double>(count));
  }
  w.family("numabalancer_round_effects_total", "counter",
           "Effects of rounds that migrated, measured effect_delay after their job, by result.");
  for (const auto& [result, count] : c.effects) {
    w.sample("numabalancer_round_effects_total", fmt::format("result=\"{}\"", to_string(result)),
             static_cast<double>(count));
  }
  w.family("numabalancer_internal_errors_total", "counter",
           "Exceptions the daemon caught and survived, by what it was doing.");
  for (const auto& [during, count] : c.internal_errors) {
    w.sample("numabalancer_internal_errors_total", fmt::format("during=\"{}\"", to_string(during)),
             static_cast<double>(count));
  }
  w.histogram("numabalancer_job_duration_seconds", "Duration of migration jobs in seconds.",
              c.job_duration);
  w.histogram("numabalancer_move_call_duration_seconds",
              "Longest single move_pages call per process of each job, in seconds.",
              c.move_call_duration);
}

}  // namespace

std::string render_prometheus(const MetricsView& view) {
  Writer w;
  if (view.snapshot != nullptr) {
    write_node_metrics(w, view);
  }
  if (!view.baselines.empty()) {
    write_baselines(w, view.baselines);
  }
  if (view.policy != nullptr) {
    write_policy(w, view);
  }
  if (view.decision != nullptr) {
    w.family("numabalancer_pressure_level", "gauge",
             "Pressure level of the last round: 0 none, 1 grace, 2 force.");
    w.sample("numabalancer_pressure_level", "", static_cast<double>(view.decision->level));
  }
  w.family("numabalancer_provider_up", "gauge",
           "1 when the metric's configured provider answered in the last round, else 0.");
  for (const auto& state : view.providers) {
    if (state.configured != "none") {
      w.sample("numabalancer_provider_up",
               fmt::format("metric=\"{}\",provider=\"{}\"", metrics::to_string(state.metric),
                           escape(state.configured)),
               state.up ? 1 : 0);
    }
  }
  if (view.counters != nullptr) {
    write_counters(w, *view.counters);
  }
  w.family("numabalancer_job_running", "gauge", "1 while a migration job runs, else 0.");
  w.sample("numabalancer_job_running", "", view.job ? 1 : 0);
  w.family("numabalancer_job_moved_bytes", "gauge",
           "Bytes the running migration job has moved so far; 0 when none runs.");
  w.sample("numabalancer_job_moved_bytes", "", view.job ? static_cast<double>(view.job->moved) : 0);
  w.family("numabalancer_job_goal_bytes", "gauge",
           "What the running migration job sets out to move; 0 when none runs.");
  w.sample("numabalancer_job_goal_bytes", "", view.job ? static_cast<double>(view.job->goal) : 0);
  w.family("numabalancer_log_messages_dropped_total", "counter",
           "Log messages dropped because the logger's queue was full.");
  w.sample("numabalancer_log_messages_dropped_total", "",
           static_cast<double>(view.log_messages_dropped));
  return w.take();
}

}  // namespace nb::service
