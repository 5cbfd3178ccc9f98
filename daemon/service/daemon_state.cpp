#include "daemon/service/daemon_state.hpp"

#include <algorithm>

#include "daemon/config/logging.hpp"

namespace nb::service {

std::vector<ProviderState> provider_states(const DaemonState& state) {
  std::vector<ProviderState> states;
  if (!state.last_scan) {
    return states;
  }
  const auto& nodes = state.last_scan->snapshot.nodes;
  auto describe = [&](metrics::Metric metric, bool any_value) {
    const auto& configured = metric == metrics::Metric::read_latency
                                 ? state.config.metrics.latency
                                 : state.config.metrics.bandwidth;
    ProviderState provider_state{metric, "", any_value, "", configured};
    if (const host::ProviderReport* report = state.last_scan->report.provider(metric)) {
      provider_state.provider = report->provider;
      provider_state.up = report->available;
      if (!report->available) {
        provider_state.reason = report->reason;
      }
    }
    states.push_back(std::move(provider_state));
  };
  describe(metrics::Metric::read_latency,
           std::any_of(nodes.begin(), nodes.end(),
                       [](const auto& n) { return n.read_latency_ns.has_value(); }));
  describe(metrics::Metric::bandwidth, std::any_of(nodes.begin(), nodes.end(), [](const auto& n) {
             return n.bandwidth_gbps.has_value();
           }));
  return states;
}

std::string metrics_text(const DaemonState& state,
                         const std::optional<actuator::JobProgress>& job) {
  MetricsView view;
  view.job = job;
  view.snapshot = state.last_scan ? &state.last_scan->snapshot : nullptr;
  view.decision = state.last_decision ? &*state.last_decision : nullptr;
  view.providers = provider_states(state);
  view.counters = &state.counters;
  view.log_messages_dropped = config::dropped_log_messages();
  view.baselines = state.baselines.of(view.snapshot);
  view.policy = &state.config.policy;
  view.history = &state.engine.history();
  return render_prometheus(view);
}

}  // namespace nb::service
