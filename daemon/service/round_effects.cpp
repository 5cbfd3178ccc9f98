#include "daemon/service/round_effects.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "base/human_format.hpp"
#include "daemon/codec/audit_log.hpp"

namespace nb::service {

namespace {

// The round's own snapshot, as far as its effect needs it.
core::Snapshot snapshot_before(const codec::RoundRecord& record) {
  core::Snapshot before;
  before.time = record.time;
  for (const auto& [id, ns] : record.latencies_before) {
    core::Node node;
    node.id = id;
    node.read_latency_ns = ns;
    if (auto bandwidth = record.bandwidths_before.find(id);
        bandwidth != record.bandwidths_before.end()) {
      node.bandwidth_gbps = bandwidth->second;
    }
    before.nodes.push_back(std::move(node));
  }
  return before;
}

void log_effect(const codec::RoundRecord& record) {
  if (!record.effect) {
    spdlog::info("round {}: no effect measured: {}", record.number, record.effect_reason);
    return;
  }
  const core::RoundEffect& effect = record.effect->effect;
  spdlog::info("round {}: {}: hot latency {} -> {} ns, gap {} -> {} ns, {} moved off node {}",
               record.number, effect.improved ? "improved" : "did not improve",
               format_number(effect.hot_before), format_number(effect.hot_after),
               format_number(effect.gap_before), format_number(effect.gap_after),
               format_bytes(static_cast<double>(record.effect->bytes_moved)),
               record.source_node.value_or(-1));
}

}  // namespace

void keep_readings_before(codec::RoundRecord& record, const core::Snapshot& snapshot) {
  record.latencies_before.clear();
  record.bandwidths_before.clear();
  for (const core::Node& node : snapshot.nodes) {
    const bool involved = record.source_node == node.id ||
                          std::find(record.dest_nodes.begin(), record.dest_nodes.end(), node.id) !=
                              record.dest_nodes.end();
    if (involved && node.read_latency_ns) {
      record.latencies_before[node.id] = *node.read_latency_ns;
    }
    if (involved && node.bandwidth_gbps) {
      record.bandwidths_before[node.id] = *node.bandwidth_gbps;
    }
  }
}

std::vector<const codec::RoundRecord*> measure_due_effects(std::vector<codec::RoundRecord>& rounds,
                                                           const core::Snapshot& after,
                                                           const core::PolicyConfig& policy) {
  std::vector<const codec::RoundRecord*> measured;
  for (codec::RoundRecord& record : rounds) {
    if (!record.effect_pending() || after.time < *record.job_finished + policy.effect_delay) {
      continue;
    }
    if (!record.source_node) {
      record.effect_reason = "the round has no source node";
    } else {
      const core::RoundMoves moves{*record.source_node, record.dest_nodes, record.planned_bytes,
                                   record.moved_bytes};
      auto result = core::measure_effect(moves, snapshot_before(record), after, policy);
      if (auto* effect = std::get_if<core::MeasuredEffect>(&result)) {
        record.effect = *effect;
        record.effect_measured = after.time;
      } else {
        record.effect_reason = std::get<std::string>(result);
      }
    }
    measured.push_back(&record);
  }
  return measured;
}

std::size_t record_due_effects(DaemonState& state, const core::Snapshot& snapshot,
                               AuditLog& audit) {
  const auto measured = measure_due_effects(state.rounds, snapshot, state.config.policy);
  for (const codec::RoundRecord* record : measured) {
    ++state.counters.effects[std::string(codec::effect_result(*record))];
    log_effect(*record);
    audit.append(state.config.export_, codec::audit_effect_entry(snapshot.time, *record));
  }
  if (!measured.empty()) {
    state.history = codec::to_history(state.rounds);
  }
  return measured.size();
}

}  // namespace nb::service
