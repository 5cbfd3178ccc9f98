#include "core/equalize.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "base/human_format.hpp"
#include "core/backoff.hpp"
#include "core/describe.hpp"
#include "core/evening_out.hpp"
#include "core/move_shares.hpp"
#include "core/node_view.hpp"
#include "core/notes.hpp"
#include "core/ping_pong.hpp"
#include "core/readings.hpp"

namespace nb::core {

namespace {

constexpr int kScaleSteps = 40;  // the fractions of the full move the service check tries

std::string describe_latency(double ns) {
  return format_number(std::round(ns * 10) / 10) + " ns";
}

Decision& hold(Decision& decision, DecisionStatus status, std::string reason) {
  decision.status = status;
  decision.reason = std::move(reason);
  decision.explanation.push_back("result: " + std::string(to_string(status)) + ", " +
                                 decision.reason);
  return decision;
}

// The nodes memory could go to from `source`: cooler by more than the deadband, and not the
// other end of a recent move the other way.
std::vector<NodeView*> destinations_from(const NodeView& source, std::vector<NodeView>& views,
                                         const History& history, TimePoint now,
                                         const PolicyConfig& config, Notes& notes) {
  std::vector<NodeView*> destinations;
  for (NodeView& view : views) {
    if (&view == &source) {
      continue;
    }
    const std::string name = "node " + std::to_string(view.node->id);
    if (source.latency <= view.latency * (1 + config.equalize_deadband)) {
      notes.add_per_container([&] {
        return "candidate " + name + ": not cooler than node " + std::to_string(source.node->id) +
               " by more than equalize_deadband " + format_number(config.equalize_deadband);
      });
      continue;
    }
    if (const Round* ban = unitemized_ping_pong_ban(history, source.node->id, view.node->id, now,
                                                    config.ping_pong_window)) {
      notes.add("candidate " + name + ": dropped (ping-pong), a round " +
                format_age(std::chrono::duration_cast<Duration>(now - ban->time)) +
                " moved memory from " + name + " to node " + std::to_string(source.node->id) +
                ", within ping_pong_window " + format_duration(config.ping_pong_window));
      continue;
    }
    destinations.push_back(&view);
  }
  return destinations;
}

// The source of a round and where its memory may go.
struct Source {
  NodeView* view = nullptr;  // none: nothing to move or nowhere to move it, `why_none` says
  std::vector<NodeView*> destinations;
  bool services = false;  // service memory moves: only where no batch memory can
  std::string why_none;
};

// The hottest node with memory to move and a node cool enough to take it.
Source choose_source(std::vector<NodeView>& views, const History& history, TimePoint now,
                     const PolicyConfig& config, Notes& notes) {
  std::vector<NodeView*> by_latency;
  for (NodeView& view : views) {
    by_latency.push_back(&view);
  }
  std::stable_sort(by_latency.begin(), by_latency.end(),
                   [](const NodeView* a, const NodeView* b) { return a->latency > b->latency; });
  Source chosen;
  std::string& why_none = chosen.why_none;
  std::vector<NodeView*>& destinations = chosen.destinations;
  bool& services = chosen.services;
  for (NodeView* candidate : by_latency) {
    const std::string name = "node " + std::to_string(candidate->node->id);
    services = candidate->batch_bytes < std::max<Bytes>(config.reclaim_container_min_bytes, 1);
    if (services && candidate->service_bytes < std::max<Bytes>(config.container_min_bytes, 1)) {
      notes.add(
          name + " (" + describe_latency(candidate->latency) + "): " +
          format_bytes(static_cast<double>(candidate->batch_bytes + candidate->service_bytes)) +
          " of movable memory, nothing to move");
      if (why_none.empty()) {
        why_none = name + " is the hottest (" + describe_latency(candidate->latency) +
                   ") but holds no memory of the pools to move";
      }
      continue;
    }
    destinations = destinations_from(*candidate, views, history, now, config, notes);
    if (services) {
      // A service byte moves only where it would be faster remote than it is at home now: the
      // readings, not the traffic estimate (which cannot tell a service's traffic from traffic
      // no container owns), must show the gap beyond the remote penalty.
      std::erase_if(destinations, [&](const NodeView* to) {
        const double penalty = remote_penalty(*candidate->node, *to->node, idle_latency(*to->node));
        const bool pays = candidate->latency - to->latency > penalty;
        if (!pays) {
          notes.add("candidate node " + std::to_string(to->node->id) +
                    ": service memory would pay " + describe_latency(penalty) +
                    " for remote access, more than the gap of " +
                    describe_latency(candidate->latency - to->latency));
        }
        return !pays;
      });
    }
    if (destinations.empty()) {
      notes.add(name + " (" + describe_latency(candidate->latency) +
                "): no node is cooler by more than equalize_deadband " +
                format_number(config.equalize_deadband));
      if (why_none.empty() && services) {
        why_none = name + " (" + describe_latency(candidate->latency) + ") holds no " +
                   config.reclaim_pool +
                   " memory, and no node is cooler by more than the remote penalty its service "
                   "memory would pay there";
      } else if (why_none.empty()) {
        why_none = "the nodes are even: no node is cooler than " + name + " (" +
                   describe_latency(candidate->latency) + ") by more than equalize_deadband " +
                   format_number(config.equalize_deadband);
      }
      continue;
    }
    chosen.view = candidate;
    return chosen;
  }
  chosen.destinations.clear();
  return chosen;
}

// Each node's own curve when its readings show one, the source's shape otherwise. A source with
// neither a baseline nor an idle reading of its own is taken to idle as fast as the fastest node
// does: the nodes of one host are usually alike. Returns the source's learned curve, if any.
std::optional<LoadCurve> fit_curves(NodeView& source, const std::vector<NodeView*>& destinations,
                                    const std::vector<NodeView>& views) {
  double source_idle = idle_latency(*source.node);
  if (!source.node->baseline_read_latency_ns) {
    for (const NodeView& view : views) {
      source_idle = std::min(source_idle, idle_latency(*view.node));
    }
  }
  const std::optional<LoadCurve> learned = learned_curve(*source.node, source_idle);
  source.curve =
      learned.value_or(curve_through(LoadPoint{source.bandwidth, source.latency}, source_idle));
  for (NodeView* destination : destinations) {
    const double idle = idle_latency(*destination->node);
    destination->curve =
        learned_curve(*destination->node, idle).value_or(borrowed_curve(source.curve, idle));
  }
  return learned;
}

}  // namespace

Decision decide_equalize(const Snapshot& snapshot, const PolicyConfig& config,
                         const History& history, TimePoint now, const DecideOptions& options) {
  Decision decision;
  decision.strategy = Strategy::equalize;
  decision.threshold = config.migrate_threshold;
  Notes notes(decision.explanation, options.explain);

  const Refused<Readings> metrics = read_metrics(snapshot);
  if (!metrics) {
    return hold(decision, metrics.error().status, metrics.error().reason);
  }
  std::vector<NodeView> views = view_nodes(snapshot, *metrics, config);
  notes.add("strategy: equalize, deadband " + format_number(config.equalize_deadband));
  if (views.size() < 2) {
    return hold(decision, DecisionStatus::idle, "one node: there is nowhere to move memory");
  }

  Source chosen = choose_source(views, history, now, config, notes);
  NodeView* source = chosen.view;
  const std::vector<NodeView*>& destinations = chosen.destinations;
  const bool services = chosen.services;
  const std::string& why_none = chosen.why_none;
  if (source == nullptr) {
    return hold(decision, DecisionStatus::idle, why_none);
  }
  decision.source_node = source->node->id;
  const Bytes movable = services ? source->service_bytes : source->batch_bytes;
  const std::string kind = services ? std::string("service") : config.reclaim_pool;
  if (services) {
    notes.add("node " + std::to_string(source->node->id) + " holds no " + config.reclaim_pool +
              " memory: its service memory may move, each byte moved paying a remote penalty");
  }

  if (auto reason = must_wait(history, source->node->id, now, config, notes)) {
    return hold(decision, DecisionStatus::cooldown, std::move(*reason));
  }

  const std::optional<LoadCurve> source_learned = fit_curves(*source, destinations, views);
  std::vector<NodeId> destination_ids;
  for (const NodeView* destination : destinations) {
    destination_ids.push_back(destination->node->id);
  }

  ShiftPlan plan = even_out(*source, {destinations.begin(), destinations.end()});
  const double per_gib = traffic_per_gib(*source, movable, history, notes);
  if (!(per_gib > 0) || !std::isfinite(per_gib)) {
    return hold(decision, DecisionStatus::idle,
                "node " + std::to_string(source->node->id) + " serves " +
                    format_number(source->bandwidth) +
                    " GB/s: moving its memory would shift no traffic");
  }
  // The round's byte caps, and each destination's free memory, bound the traffic shifted.
  double total_shift = 0;
  for (std::size_t d = 0; d < plan.shifted.size(); ++d) {
    // No destination can take more traffic than the source serves.
    const double shift = plan.shifted[d];
    plan.shifted[d] = std::isnan(shift) ? 0 : std::clamp(shift, 0.0, source->bandwidth);
    if (auto free = plan.destinations[d]->node->free_bytes) {
      plan.shifted[d] = std::min(plan.shifted[d], per_gib * static_cast<double>(*free) / kGiB);
    }
    total_shift += plan.shifted[d];
  }
  const Bytes round_cap =
      services ? std::min(config.round_max_bytes, movable)
               : std::min({config.reclaim_round_max_bytes, config.round_max_bytes, movable});
  const double shift_cap = per_gib * static_cast<double>(round_cap) / kGiB;
  if (total_shift > shift_cap && total_shift > 0) {
    for (double& shift : plan.shifted) {
      shift *= shift_cap / total_shift;
    }
    total_shift = shift_cap;
  }

  // Do no harm: the fraction of the move that serves the service memory best, none if every
  // fraction slows it.
  auto bandwidths_at = [&](double scale) {
    const double moved_service = services ? scale * total_shift / per_gib * kGiB : 0;
    std::vector<MovedTo> nodes{
        {source, source->bandwidth - scale * total_shift, -moved_service, 0}};
    for (std::size_t d = 0; d < plan.destinations.size(); ++d) {
      const NodeView* to = plan.destinations[d];
      nodes.push_back(MovedTo{to, to->bandwidth + scale * plan.shifted[d],
                              services ? scale * plan.shifted[d] / per_gib * kGiB : 0,
                              remote_penalty(*source->node, *to->node, idle_latency(*to->node))});
    }
    return nodes;
  };
  const std::optional<double> service_before = service_latency(bandwidths_at(0));
  double scale = 1;
  if (service_before) {
    double best = *service_before;
    scale = 0;
    for (int step = 1; step <= kScaleSteps; ++step) {
      const double trial = static_cast<double>(step) / kScaleSteps;
      const double latency = *service_latency(bandwidths_at(trial));
      if (latency <= best) {
        best = latency;
        scale = trial;
      }
    }
  }

  Prediction prediction;
  prediction.traffic_per_gib = per_gib;
  prediction.service_latency_before_ns = service_before;
  prediction.service_latency_after_ns =
      service_before ? service_latency(bandwidths_at(scale)) : std::nullopt;
  for (const MovedTo& node : bandwidths_at(scale)) {
    const NodeView* view = node.view;
    prediction.nodes.push_back(NodePrediction{
        view->node->id, view->latency, view->predict(node.bandwidth), view->bandwidth,
        node.bandwidth, view == source ? source_learned.has_value() : view->curve.learned()});
  }
  notes.add("prediction: node " + std::to_string(source->node->id) + " serves " +
            format_number(source->bandwidth) + " GB/s over " +
            format_bytes(static_cast<double>(movable)) + " of " + kind + " memory, taken as " +
            format_number(per_gib) + " GB/s per GiB moved");
  for (const NodePrediction& node : prediction.nodes) {
    notes.add("curve of node " + std::to_string(node.node) + ": " +
              (node.learned_curve ? "learned from its readings" : "assumed") + ", " +
              describe_latency(node.latency_before_ns) + " at " +
              format_number(node.bandwidth_before_gbps) + " GB/s -> " +
              describe_latency(node.latency_after_ns) + " at " +
              format_number(node.bandwidth_after_gbps) + " GB/s");
  }
  decision.prediction = prediction;

  if (scale <= 0) {
    return hold(decision, DecisionStatus::idle,
                "moving memory off node " + std::to_string(source->node->id) +
                    " is predicted to slow service memory (" + describe_latency(*service_before) +
                    " now)");
  }
  // A move the closed loop would judge `not improved` is not worth its cost: the hottest node it
  // touches must come out at least min_improvement below the source's latency now.
  double hot_after = 0;
  for (const NodePrediction& node : prediction.nodes) {
    hot_after = std::max(hot_after, node.latency_after_ns);
  }
  if (hot_after > source->latency * (1 - config.min_improvement)) {
    return hold(decision, DecisionStatus::idle,
                "the best move off node " + std::to_string(source->node->id) +
                    " is predicted to lower the hottest latency from " +
                    describe_latency(source->latency) + " to " + describe_latency(hot_after) +
                    ", less than min_improvement " + format_number(config.min_improvement));
  }
  std::vector<Bytes> bytes;
  Bytes total_bytes = 0;
  for (double shift : plan.shifted) {
    // Within the round's cap already, unless readings near the limits of a double lost the
    // precision that kept it there: what is left of the cap bounds each destination.
    const double left = static_cast<double>(round_cap - total_bytes);
    const double wanted = scale * shift / per_gib * kGiB;
    bytes.push_back(static_cast<Bytes>(std::isnan(wanted) ? 0.0 : std::clamp(wanted, 0.0, left)));
    total_bytes += bytes.back();
  }
  const Bytes smallest = services ? config.container_min_bytes : config.reclaim_container_min_bytes;
  if (total_bytes < std::max<Bytes>(smallest, kSmallestPiece)) {
    return hold(decision, DecisionStatus::idle,
                "the move that evens node " + std::to_string(source->node->id) + " out is " +
                    format_bytes(static_cast<double>(total_bytes)) + ", below " +
                    (services ? "container_min_bytes" : "reclaim_container_min_bytes"));
  }
  decision.migrate =
      share_out(snapshot, *source, services, plan.destinations, bytes, history, now, config, notes);
  for (const ContainerMove& move : decision.migrate) {
    decision.total_bytes += move.bytes_on_source;
    for (NodeId to : move.dest_nodes) {
      if (std::find(decision.dest_nodes.begin(), decision.dest_nodes.end(), to) ==
          decision.dest_nodes.end()) {
        decision.dest_nodes.push_back(to);
      }
    }
  }
  if (decision.migrate.empty()) {
    return hold(decision, DecisionStatus::idle,
                "no " + kind + " container on node " + std::to_string(source->node->id) +
                    " may go to " + describe_node_set(destination_ids));
  }
  for (const ContainerMove& move : decision.migrate) {
    std::string line = "move " + format_bytes(static_cast<double>(move.bytes_on_source)) + " of " +
                       move.id + " off node " + std::to_string(source->node->id) + ":";
    for (const NodePrediction& node : prediction.nodes) {
      if (node.node == source->node->id || node.node == move.dest_nodes.front()) {
        line += " node " + std::to_string(node.node) + " " +
                format_number(std::round(node.latency_before_ns)) + " -> " +
                format_number(std::round(node.latency_after_ns)) + " ns,";
      }
    }
    line.back() = ' ';
    decision.explanation.push_back(line + "predicted");
  }
  decision.status = DecisionStatus::ready;
  decision.reason = "evening out node " + std::to_string(source->node->id) + " (" +
                    describe_latency(source->latency) + ") with " +
                    describe_node_set(decision.dest_nodes);
  decision.explanation.push_back("result: ready, migrate " +
                                 format_bytes(static_cast<double>(decision.total_bytes)) +
                                 " from node " + std::to_string(source->node->id) + " to " +
                                 describe_node_set(decision.dest_nodes));
  return decision;
}

}  // namespace nb::core
