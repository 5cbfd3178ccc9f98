#pragma once
// The daemon's persisted rounds (`[daemon] state_dir`/state.json), so that cooldowns and
// ping-pong bans survive restarts. Written by write-temp + fsync + rename: a crash leaves the old
// file or the new one, never half of one. A file that cannot be read is moved aside as
// state.json.corrupt-<time> and the daemon starts with empty history.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/history.hpp"
#include "base/result.hpp"
#include "base/units.hpp"

namespace nb::codec {

// One round as the daemon remembers it: what was decided and what came of it.
struct RoundRecord {
  std::uint64_t number = 0;
  TimePoint time;
  std::string trigger;  // timer, reconcile, manual
  std::string status;   // the decision's status (ready, idle, cooldown, no_metrics, failed)
  // acted, deferred, dry_run, paused, running, cancelled, failed, none
  std::string outcome;
  std::string reason;
  std::optional<NodeId> source_node;
  std::vector<NodeId> dest_nodes;
  std::vector<std::string> containers;  // planned for migration
  std::vector<std::string> evicted;
  Bytes planned_bytes = 0;
  Bytes moved_bytes = 0;
  bool migrated = false;
  nlohmann::json report;  // the migration report's summary, when a job ran
  // The whole report (per container, per process), kept only for the newest rounds: see
  // keep_newest_full_reports.
  nlohmann::json full_report;

  bool acted() const { return migrated || !evicted.empty(); }
};

nlohmann::json to_json(const RoundRecord& record);
Result<RoundRecord> record_from_json(const nlohmann::json& json);

// Clears the full report of every round but the newest `count` that have one, so that the
// state file holds summaries for old rounds and stays bounded.
void keep_newest_full_reports(std::vector<RoundRecord>& rounds, std::size_t count);

// The acted rounds, oldest first, as core::decide() reads them.
core::History to_history(const std::vector<RoundRecord>& records);

struct LoadedState {
  std::vector<RoundRecord> rounds;
  // Set when the file was unreadable: where it went and why.
  std::optional<std::filesystem::path> moved_aside_to;
  std::string problem;
};

inline constexpr const char* kStateFileName = "state.json";

// Reads without changing anything (for `numabalancerd snapshot`). A missing file is no rounds.
Result<std::vector<RoundRecord>> read_state(const std::filesystem::path& file);
// The daemon's start-up read: a missing file is an empty state, not an error; an unreadable one
// is moved aside.
LoadedState load_state(const std::filesystem::path& file, TimePoint now);
Status save_state(const std::filesystem::path& file, const std::vector<RoundRecord>& rounds);

}  // namespace nb::codec
