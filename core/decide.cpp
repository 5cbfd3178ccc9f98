#include "core/decide.hpp"

#include <string>
#include <utility>

#include "core/bandwidth.hpp"
#include "core/candidates.hpp"
#include "core/container_selection.hpp"
#include "core/cooldown.hpp"
#include "core/describe.hpp"
#include "core/destinations.hpp"
#include "core/eviction.hpp"
#include "core/notes.hpp"
#include "core/ping_pong.hpp"
#include "core/pressure.hpp"
#include "core/readings.hpp"

namespace nb::core {

namespace {

Decision& end_round(Decision& decision, DecisionStatus status, std::string reason) {
  decision.status = status;
  decision.reason = std::move(reason);
  decision.explanation.push_back("result: " + std::string(to_string(status)) +
                                 (decision.reason.empty() ? "" : ", " + decision.reason));
  return decision;
}

Decision& end_round(Decision& decision, const Refusal& refusal) {
  return end_round(decision, refusal.status, refusal.reason);
}

std::string describe_result(const Decision& decision) {
  std::string text = "result: ready";
  if (!decision.migrate.empty()) {
    text += ", migrate " + std::to_string(decision.migrate.size()) + " container(s), " +
            format_bytes(decision.total_bytes) + " from node " +
            std::to_string(*decision.source_node) + " to " + describe_node_set(decision.dest_nodes);
  }
  if (!decision.evict.empty()) {
    text += ", evict " + decision.evict.front().id;
  }
  return text;
}

}  // namespace

Decision decide(const Snapshot& snapshot, const PolicyConfig& config, const History& history,
                TimePoint now) {
  return decide(snapshot, config, history, now, DecideOptions{});
}

Decision decide(const Snapshot& snapshot, const PolicyConfig& config, const History& history,
                TimePoint now, const DecideOptions& options) {
  Decision decision;
  decision.threshold = config.migrate_threshold;
  Notes notes(decision.explanation, options.explain);

  const Refused<Readings> metrics = read_metrics(snapshot);
  if (!metrics) {
    return end_round(decision, metrics.error());
  }
  const Readings& readings = *metrics;
  const Reading& hottest = readings.hottest();
  notes.add("metrics: node " + std::to_string(hottest.id()) + " has the highest read latency (" +
            format_number(hottest.read_latency_ns) + " ns), node " +
            std::to_string(readings.busiest().id()) + " the most bandwidth (" +
            format_number(readings.busiest().bandwidth_gbps) + " GB/s)");

  Candidates nearby = candidates_by_distance(readings, hottest);
  if (!nearby) {
    return end_round(decision, nearby.error());
  }
  notes.add("candidates from node " + std::to_string(hottest.id()) + ": " +
            describe_candidates(*nearby));

  const Pressure pressure = assess_pressure(hottest, *nearby, config);
  decision.level = pressure.level;
  notes.add("pressure: " + std::string(to_string(pressure.level)) + ", " + pressure.why);
  if (pressure.level == PressureLevel::none) {
    return end_round(decision, DecisionStatus::idle, "no latency pressure");
  }
  decision.source_node = hottest.id();
  if (nearby->empty()) {
    return end_round(decision, DecisionStatus::failed, "no destination node");
  }

  const BandwidthAssessment bandwidth = assess_bandwidth(readings, config);
  decision.bandwidth_level = bandwidth.level;
  notes.add("bandwidth: " + std::string(to_string(bandwidth.level)) + ", " + bandwidth.why);
  Refused<Regulation> regulated =
      regulate_by_bandwidth(readings, pressure.level, bandwidth.level, std::move(*nearby));
  if (!regulated) {
    return end_round(decision, regulated.error());
  }
  Regulation& regulation = *regulated;
  if (regulation.cancelled) {
    return end_round(decision, DecisionStatus::idle, std::move(regulation.why));
  }
  notes.add("source: " + regulation.why);
  const Reading& source = *regulation.source;
  decision.source_node = source.id();
  decision.bandwidth_pressure = regulation.bandwidth_pressure;

  if (const Round* last = cooldown_round(history, now, config.min_interval)) {
    return end_round(decision, DecisionStatus::cooldown,
                     "the last round acted " +
                         format_age(std::chrono::duration_cast<Duration>(now - last->time)) +
                         ", within min_interval " + format_duration(config.min_interval));
  }

  std::vector<Candidate> destinations = filter_by_gap(regulation.candidates, source, pressure.level,
                                                      regulation.bandwidth_pressure, config, notes);
  destinations = drop_ping_pong(std::move(destinations), source.id(), history, now,
                                config.ping_pong_window, notes);
  for (const Candidate& destination : destinations) {
    decision.dest_nodes.push_back(destination.id);
  }
  notes.add("destinations: " + describe_nodes(decision.dest_nodes));

  if (auto eviction = pick_eviction(snapshot, source.id(), config, notes)) {
    decision.evict.push_back(std::move(*eviction));
  }
  if (!decision.dest_nodes.empty()) {
    Selection selection =
        select_containers(snapshot, source.id(), decision.dest_nodes, config, notes);
    decision.migrate = std::move(selection.migrate);
    decision.total_bytes = selection.total_bytes;
  }

  if (decision.migrate.empty() && decision.evict.empty()) {
    // The seed overwrote this failure with success, so a round that could do nothing looked fine.
    return end_round(decision, DecisionStatus::failed,
                     "pressure but no container can be migrated or evicted");
  }
  decision.status = DecisionStatus::ready;
  decision.explanation.push_back(describe_result(decision));
  return decision;
}

}  // namespace nb::core
