#pragma once
// One round as the daemon remembers it: what was decided and what came of it. The round engine
// keeps these (service/round_engine.hpp); codec/state_file.hpp is their one JSON encoding, for the
// state file, admin replies, events and the audit log.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/units.hpp"
#include "core/history.hpp"
#include "core/round_effect.hpp"
#include "daemon/rounds/kept_report.hpp"
#include "daemon/rounds/report_summary.hpp"
#include "daemon/rounds/round_outcome.hpp"

namespace nb::rounds {

struct RoundRecord {
  std::uint64_t number = 0;
  TimePoint time;
  std::string trigger;  // timer, reconcile, manual
  RoundStatus status = RoundStatus::scanning;
  RoundOutcome outcome = RoundOutcome::pending;
  std::string reason;
  std::optional<NodeId> source_node;
  std::vector<NodeId> dest_nodes;
  std::vector<std::string> containers;  // planned for migration
  std::vector<std::string> evicted;
  Bytes planned_bytes = 0;
  Bytes moved_bytes = 0;
  bool migrated = false;
  // What the job moved of each container to each destination: the ping-pong ban's unit for
  // strategies that move parts of containers. Empty in rounds saved before it was kept.
  std::vector<core::MovedShare> moved_shares;
  std::optional<ReportSummary> report;  // when a job ran
  // The job's report with its busiest processes, kept only for the newest rounds (see
  // keep_newest_full_reports).
  std::optional<KeptReport> full_report;
  // Closing the loop: the read latencies of the source and destinations in the snapshot the
  // job was planned from, when the job finished, and then the effect measured effect_delay later
  // (or why there is none).
  std::map<NodeId, double> latencies_before;
  std::map<NodeId, double> bandwidths_before;
  std::optional<TimePoint> job_finished;
  std::optional<core::MeasuredEffect> effect;
  std::optional<TimePoint> effect_measured;
  std::string effect_reason;

  bool acted() const { return migrated || !evicted.empty(); }
  // Migrated, its job over, and neither an effect nor a reason yet.
  bool effect_pending() const {
    return migrated && job_finished && !effect && effect_reason.empty();
  }
};

// What measuring a round's effect came to: the audit log's result and the effects counter's label.
enum class EffectResult { improved, not_improved, unknown };
std::string_view to_string(EffectResult result);
// nullopt while the effect is pending or for a round that did not migrate; unknown for a round
// whose effect could not be measured.
std::optional<EffectResult> effect_result(const RoundRecord& record);

// Clears the full report of every round but the newest `count` that have one, so that the kept
// rounds hold summaries for old rounds and stay bounded. Returns the rounds it cleared.
std::vector<std::uint64_t> keep_newest_full_reports(std::vector<RoundRecord>& rounds,
                                                    std::size_t count);

// The acted rounds, oldest first, as core::decide() reads them. The engine builds its history
// this way once, from the loaded state, and then appends to it (history_entry).
core::History to_history(const std::vector<RoundRecord>& records);
// What an acted round adds to core::History; nullopt for a round that did not act.
std::optional<core::Round> history_entry(const RoundRecord& record);

}  // namespace nb::rounds
