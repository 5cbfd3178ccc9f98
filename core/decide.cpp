#include "core/decide.hpp"

#include <optional>
#include <string>
#include <utility>

#include "core/backoff.hpp"
#include "core/bandwidth.hpp"
#include "core/baselines.hpp"
#include "core/candidates.hpp"
#include "core/container_selection.hpp"
#include "core/cooldown.hpp"
#include "core/describe.hpp"
#include "core/destinations.hpp"
#include "core/equalize.hpp"
#include "core/eviction.hpp"
#include "core/notes.hpp"
#include "core/ping_pong.hpp"
#include "core/pressure.hpp"
#include "core/readings.hpp"
#include "core/threshold_choice.hpp"

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

// The node whose pressure the round judges: the highest latency in absolute mode; in relative
// mode the node furthest above its own baseline, once every node has one.
Refused<const Reading*> pressured_node(const Readings& readings, ThresholdMode mode, Notes& notes) {
  if (mode != ThresholdMode::relative) {
    return &readings.hottest();
  }
  if (auto calibrated = require_baselines(readings); !calibrated) {
    return calibrated.error();
  }
  const Reading& furthest = furthest_above_baseline(readings);
  const double baseline = baseline_of(furthest);
  notes.add("source of pressure: node " + std::to_string(furthest.id()) +
            " is furthest above its baseline (" + format_number(furthest.read_latency_ns) +
            " ns / " + format_number(baseline) +
            " ns = " + format_number(furthest.read_latency_ns / baseline) + ")");
  return &furthest;
}

struct Judgement {
  const Reading* pressured = nullptr;
  std::vector<Candidate> nearby;  // by distance from the pressured node
  ThresholdMode mode = ThresholdMode::absolute;
  Pressure pressure;
};

// Steps 1 and 2: which thresholds apply, which node they judge, and its pressure.
Refused<Judgement> judge_pressure(const Snapshot& snapshot, const Readings& readings,
                                  const PolicyConfig& config, Notes& notes) {
  const Reading& hottest = readings.hottest();
  notes.add("metrics: node " + std::to_string(hottest.id()) + " has the highest read latency (" +
            format_number(hottest.read_latency_ns) + " ns), node " +
            std::to_string(readings.busiest().id()) + " the most bandwidth (" +
            format_number(readings.busiest().bandwidth_gbps) + " GB/s)");

  const ThresholdChoice thresholds =
      choose_threshold_mode(config.threshold_mode, snapshot.latency_kind());
  notes.add("thresholds: " + std::string(to_string(thresholds.mode)) + " (" + thresholds.why + ")");
  const Refused<const Reading*> chosen = pressured_node(readings, thresholds.mode, notes);
  if (!chosen) {
    return chosen.error();
  }
  const Reading& pressured = **chosen;

  Candidates nearby = candidates_by_distance(readings, pressured);
  if (!nearby) {
    return nearby.error();
  }
  notes.add("candidates from node " + std::to_string(pressured.id()) + ": " +
            describe_candidates(*nearby));

  const Pressure pressure =
      assess_pressure(pressured, *nearby, config, thresholds.mode, snapshot.latency_kind());
  notes.add("pressure: " + std::string(to_string(pressure.level)) + ", " + pressure.why);
  return Judgement{&pressured, std::move(*nearby), thresholds.mode, pressure};
}

}  // namespace

Decision decide(const Snapshot& snapshot, const PolicyConfig& config, const History& history,
                TimePoint now) {
  return decide(snapshot, config, history, now, DecideOptions{});
}

Decision decide(const Snapshot& snapshot, const PolicyConfig& config, const History& history,
                TimePoint now, const DecideOptions& options) {
  if (config.strategy == Strategy::equalize) {
    return decide_equalize(snapshot, config, history, now, options);
  }
  Decision decision;
  decision.threshold = config.migrate_threshold;
  Notes notes(decision.explanation, options.explain);

  const Refused<Readings> metrics = read_metrics(snapshot);
  if (!metrics) {
    return end_round(decision, metrics.error());
  }
  const Readings& readings = *metrics;
  Refused<Judgement> judged = judge_pressure(snapshot, readings, config, notes);
  if (!judged) {
    return end_round(decision, judged.error());
  }
  const Reading& pressured = *judged->pressured;
  const Pressure& pressure = judged->pressure;
  decision.level = pressure.level;
  decision.thresholds = judged->mode;
  if (pressure.level == PressureLevel::none) {
    return end_round(decision, DecisionStatus::idle, "no latency pressure");
  }
  if (snapshot.nodes.size() == 1) {
    // A state of the host, not a failure of the round: the daemon says it once at start-up, and
    // a failed round every interval would only bury the rounds that matter.
    return end_round(decision, DecisionStatus::idle, "one node: there is nowhere to move memory");
  }
  decision.source_node = pressured.id();
  if (judged->nearby.empty()) {
    return end_round(decision, DecisionStatus::failed, "no destination node");
  }

  const BandwidthAssessment bandwidth = assess_bandwidth(readings, pressured, config);
  decision.bandwidth_level = bandwidth.level;
  notes.add("bandwidth: " + std::string(to_string(bandwidth.level)) + ", " + bandwidth.why);
  Refused<Regulation> regulated = regulate_by_bandwidth(readings, pressured, pressure.level,
                                                        bandwidth.level, std::move(judged->nearby));
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

  if (auto reason = must_wait(history, source.id(), now, config, notes)) {
    return end_round(decision, DecisionStatus::cooldown, std::move(*reason));
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
  std::string refused;
  if (!decision.dest_nodes.empty()) {
    Selection selection =
        select_containers(snapshot, source.id(), decision.dest_nodes, config, notes);
    decision.migrate = std::move(selection.migrate);
    decision.total_bytes = selection.total_bytes;
    refused = describe_refused(selection);
  }

  if (decision.migrate.empty() && decision.evict.empty()) {
    // The seed overwrote this failure with success, so a round that could do nothing looked fine.
    return end_round(decision, DecisionStatus::failed,
                     "pressure but no container can be migrated or evicted" +
                         (refused.empty() ? "" : ": " + refused));
  }
  if (decision.migrate.empty()) {
    // Ready for its eviction alone: say why no memory moves, or every such round reads as fine.
    decision.reason = decision.dest_nodes.empty() ? "no destination node; eviction only"
                      : refused.empty()           ? "no container to migrate; eviction only"
                                        : "no container migrates: " + refused + "; eviction only";
  }
  decision.status = DecisionStatus::ready;
  decision.explanation.push_back(describe_result(decision));
  return decision;
}

}  // namespace nb::core
