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
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/codec/baseline_json.hpp"
#include "daemon/rounds/round_record.hpp"

namespace nb::codec {

// The one encoding of a round: the state journal, the admin replies and events write it whole,
// the audit log's entries take views of it (round_fields).
enum class RoundView {
  whole,
  without_full_report,  // for views that carry the report their own way, or not at all
};
nlohmann::json to_json(const rounds::RoundRecord& record, RoundView view = RoundView::whole);
// The named fields of to_json(record), those it writes.
nlohmann::json round_fields(const rounds::RoundRecord& record,
                            std::initializer_list<const char*> names);
Result<rounds::RoundRecord> record_from_json(const nlohmann::json& json);

// What the state file holds. "baselines" is optional: files written before baselines were learned
// have none, and a malformed one is dropped on its own (`baselines_dropped` says why) rather than
// costing the rounds.
struct StateContents {
  std::vector<rounds::RoundRecord> rounds;
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
Result<std::vector<rounds::RoundRecord>> read_state(const std::filesystem::path& file);
Result<StateContents> read_state_contents(const std::filesystem::path& file);
// The daemon's start-up read: a missing file is an empty state, not an error; an unreadable one
// is moved aside.
LoadedState load_state(const std::filesystem::path& file, TimePoint now);
// The whole state, written anew as a compacted journal. "baselines" is written only when there are
// readings to keep.
Status save_state(const std::filesystem::path& file, const std::vector<rounds::RoundRecord>& rounds,
                  const SavedBaselines* baselines = nullptr);

}  // namespace nb::codec
