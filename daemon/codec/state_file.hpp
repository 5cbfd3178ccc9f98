#pragma once
// The daemon's persisted rounds (`[daemon] state_dir`/state.json), so that cooldowns and
// ping-pong bans survive restarts. The file is a journal of JSON lines (state_journal.hpp): a
// round appends what it changed, and the whole state is written anew (write-temp + fsync +
// rename) at start-up, at stop and when the journal has grown past its bound. A crash mid-append
// leaves a torn last line, which the reader drops. A file that cannot be read otherwise is moved
// aside as state.json.corrupt-<time> and the daemon starts with empty history.

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "base/units.hpp"
#include "core/history.hpp"
#include "core/round_effect.hpp"
#include "daemon/codec/baseline_json.hpp"
#include "daemon/codec/report_summary.hpp"
#include "daemon/codec/round_outcome.hpp"

namespace nb::codec {

// One round as the daemon remembers it: what was decided and what came of it.
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
  // The whole report (per container, per process) as codec::to_json(report, limit) wrote it once
  // when the job ended, kept only for the newest rounds (see keep_newest_full_reports). It stays
  // in its wire form: trimmed to the busiest processes, it no longer reads back into a report
  // whose totals add up.
  nlohmann::json full_report;
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

// "improved", "not_improved", or "unknown" for a round whose effect could not be measured; empty
// while pending or for a round that did not migrate. Also the label of the effects counter.
std::string_view effect_result(const RoundRecord& record);

// The one encoding of a round: the state journal, the admin replies and events write it whole,
// the audit log's entries take views of it (round_fields).
enum class RoundView {
  whole,
  without_full_report,  // for views that carry the report their own way, or not at all
};
nlohmann::json to_json(const RoundRecord& record, RoundView view = RoundView::whole);
// The named fields of to_json(record), those it writes.
nlohmann::json round_fields(const RoundRecord& record, std::initializer_list<const char*> names);
Result<RoundRecord> record_from_json(const nlohmann::json& json);

// Clears the full report of every round but the newest `count` that have one, so that the
// state file holds summaries for old rounds and stays bounded. Returns the rounds it cleared.
std::vector<std::uint64_t> keep_newest_full_reports(std::vector<RoundRecord>& rounds,
                                                    std::size_t count);

// The acted rounds, oldest first, as core::decide() reads them. The daemon builds its history
// this way once, from the loaded state, and then appends to it (history_entry).
core::History to_history(const std::vector<RoundRecord>& records);
// What an acted round adds to core::History; nullopt for a round that did not act.
std::optional<core::Round> history_entry(const RoundRecord& record);

// What the state file holds. "baselines" is optional: files written before baselines were learned
// have none, and a malformed one is dropped on its own (`baselines_dropped` says why) rather than
// costing the rounds.
struct StateContents {
  std::vector<RoundRecord> rounds;
  std::optional<SavedBaselines> baselines;
  std::optional<Error> baselines_dropped;
  bool torn_line_dropped = false;  // the journal's last line was cut short (a crash mid-append)
};

// A state file that could not be read: why, and where it was moved (or why moving it failed).
struct SetAside {
  Error unreadable;
  Result<std::filesystem::path> moved_to;
};

struct LoadedState {
  StateContents contents;  // empty when the file was missing or set aside
  std::optional<SetAside> set_aside;
};

inline constexpr const char* kStateFileName = "state.json";

// Reads without changing anything (for `numabalancerd snapshot`). A missing file is no rounds.
Result<std::vector<RoundRecord>> read_state(const std::filesystem::path& file);
Result<StateContents> read_state_contents(const std::filesystem::path& file);
// The daemon's start-up read: a missing file is an empty state, not an error; an unreadable one
// is moved aside.
LoadedState load_state(const std::filesystem::path& file, TimePoint now);
// The whole state, written anew as a compacted journal. "baselines" is written only when there are
// readings to keep.
Status save_state(const std::filesystem::path& file, const std::vector<RoundRecord>& rounds,
                  const SavedBaselines* baselines = nullptr);

}  // namespace nb::codec
