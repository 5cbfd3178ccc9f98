#pragma once
// The round engine's state on disk ([daemon] state_dir/state.json, a journal: see
// codec/state_journal.hpp): loaded at start-up and written anew there, then each change a round
// makes appended, the baselines' new readings every kBaselineSaveEvery, and the whole state
// written anew when the journal outgrows its bound and at stop. Failures are logged here, once
// each, and the daemon carries on with its state in memory: the next write is a compaction.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "base/units.hpp"
#include "daemon/codec/state_file.hpp"
#include "daemon/codec/state_journal.hpp"
#include "daemon/service/node_baselines.hpp"

namespace nb::service {

struct LoadedRounds {
  std::vector<rounds::RoundRecord> rounds;
  // The readings behind learned baselines; a malformed part is logged and left out.
  std::optional<codec::SavedBaselines> baselines;
};

class StateStore {
 public:
  explicit StateStore(const std::filesystem::path& state_dir);

  // An unreadable file is moved aside (and logged) and the state starts empty.
  LoadedRounds load(TimePoint now);
  // The rounds `changed` and, when due, the baselines' new readings; or everything anew when the
  // journal is due a compaction. `kept`: every round the engine keeps, `changed` among them.
  void write(const std::vector<const rounds::RoundRecord*>& changed,
             const std::vector<rounds::RoundRecord>& kept, NodeBaselines& baselines, TimePoint now);
  // Everything anew (at start-up and at stop).
  void compact(const std::vector<rounds::RoundRecord>& kept, NodeBaselines& baselines,
               TimePoint now);

 private:
  void log_failure(const Status& written);

  codec::StateJournal journal_;
  bool failing_ = false;  // the last write failed: the next failure is not logged again
};

}  // namespace nb::service
