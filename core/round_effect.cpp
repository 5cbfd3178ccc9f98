#include "core/round_effect.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "base/human_format.hpp"

namespace nb::core {

namespace {

// The node's reading of `metric` in the snapshot, if it has one.
std::optional<double> reading_of(const Snapshot& snapshot, NodeId id,
                                 std::optional<double> Node::*metric) {
  for (const Node& node : snapshot.nodes) {
    if (node.id == id) {
      return node.*metric;
    }
  }
  return std::nullopt;
}

std::optional<double> latency_of(const Snapshot& snapshot, NodeId id) {
  const auto latency = reading_of(snapshot, id, &Node::read_latency_ns);
  return latency && *latency > 0 ? latency : std::nullopt;
}

struct Latencies {
  double source = 0;
  double hot = 0;
  double gap = 0;
};

// The source's latency, the hot one and the gap in one snapshot, or which node lacks one.
std::variant<Latencies, std::string> latencies(const RoundMoves& moves, const Snapshot& snapshot,
                                               const char* which) {
  auto source = latency_of(snapshot, moves.source);
  if (!source) {
    return "the snapshot " + std::string(which) + " the round has no read latency for node " +
           std::to_string(moves.source);
  }
  Latencies out{*source, *source, 0};
  double coolest = std::numeric_limits<double>::infinity();
  for (NodeId dest : moves.destinations) {
    auto latency = latency_of(snapshot, dest);
    if (!latency) {
      return "the snapshot " + std::string(which) + " the round has no read latency for node " +
             std::to_string(dest);
    }
    out.hot = std::max(out.hot, *latency);
    coolest = std::min(coolest, *latency);
  }
  out.gap = *source - coolest;
  return out;
}

}  // namespace

EffectOrReason measure_effect(const RoundMoves& moves, const Snapshot& before,
                              const Snapshot& after, const PolicyConfig& config) {
  if (moves.destinations.empty()) {
    return std::string("the round planned no migration");
  }
  if (moves.moved_bytes <= 0) {
    return std::string("the job moved nothing");
  }
  // A manual job without a byte budget has no plan to fall short of.
  if (moves.planned_bytes > 0 &&
      static_cast<double>(moves.moved_bytes) <
          config.migrate_threshold * static_cast<double>(moves.planned_bytes)) {
    return "the job moved " + format_bytes(static_cast<double>(moves.moved_bytes)) + " of " +
           format_bytes(static_cast<double>(moves.planned_bytes)) +
           ", less than migrate_threshold " + format_number(config.migrate_threshold) +
           " of its plan";
  }
  auto then = latencies(moves, before, "of");
  if (auto* reason = std::get_if<std::string>(&then)) {
    return *reason;
  }
  auto now = latencies(moves, after, "after");
  if (auto* reason = std::get_if<std::string>(&now)) {
    return *reason;
  }
  const Latencies& b = std::get<Latencies>(then);
  const Latencies& a = std::get<Latencies>(now);
  MeasuredEffect measured;
  measured.effect =
      RoundEffect{a.hot <= b.source * (1 - config.min_improvement), b.source, a.hot, b.gap, a.gap};
  const auto bandwidth_before = reading_of(before, moves.source, &Node::bandwidth_gbps);
  const auto bandwidth_after = reading_of(after, moves.source, &Node::bandwidth_gbps);
  if (bandwidth_before && bandwidth_after && *bandwidth_before > *bandwidth_after) {
    measured.effect.traffic_per_gib =
        (*bandwidth_before - *bandwidth_after) / (static_cast<double>(moves.moved_bytes) / kGiB);
  }
  measured.source_latency_before = b.source;
  measured.source_latency_after = a.source;
  measured.bytes_moved = moves.moved_bytes;
  return measured;
}

}  // namespace nb::core
