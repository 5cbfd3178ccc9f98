#include "daemon/service/daemon_state.hpp"

#include <algorithm>

#include "daemon/config/logging.hpp"

namespace nb::service {

std::vector<ProviderState> provider_states(const DaemonState& state) {
  std::vector<ProviderState> states;
  if (!state.last_snapshot) {
    return states;
  }
  const auto& snapshot = state.last_snapshot->snapshot;
  const nlohmann::json& meta = state.last_snapshot->meta;
  auto describe = [&](const char* metric, bool any_value) {
    ProviderState provider_state{metric, "", any_value, ""};
    // The host scanner says which provider answered under meta.metrics.<metric>.
    if (auto metrics = meta.find("metrics"); metrics != meta.end() && metrics->is_object()) {
      if (auto entry = metrics->find(metric); entry != metrics->end() && entry->is_object()) {
        if (auto provider = entry->find("provider");
            provider != entry->end() && provider->is_string()) {
          provider_state.provider = provider->get<std::string>();
        }
        if (auto available = entry->find("available");
            available != entry->end() && available->is_boolean()) {
          provider_state.up = available->get<bool>();
        }
        if (auto reason = entry->find("unavailable_reason");
            reason != entry->end() && reason->is_string()) {
          provider_state.reason = reason->get<std::string>();
        }
      }
    }
    states.push_back(std::move(provider_state));
  };
  describe("read_latency",
           std::any_of(snapshot.nodes.begin(), snapshot.nodes.end(),
                       [](const auto& n) { return n.read_latency_ns.has_value(); }));
  describe("bandwidth", std::any_of(snapshot.nodes.begin(), snapshot.nodes.end(),
                                    [](const auto& n) { return n.bandwidth_gbps.has_value(); }));
  return states;
}

std::string metrics_text(const DaemonState& state) {
  MetricsView view;
  view.snapshot = state.last_snapshot ? &state.last_snapshot->snapshot : nullptr;
  view.decision = state.last_decision ? &*state.last_decision : nullptr;
  view.providers = provider_states(state);
  view.counters = &state.counters;
  view.log_messages_dropped = config::dropped_log_messages();
  return render_prometheus(view);
}

}  // namespace nb::service
