#include "daemon/service/state_store.hpp"

#include <spdlog/spdlog.h>

namespace nb::service {

StateStore::StateStore(const std::filesystem::path& state_dir)
    : journal_(state_dir / codec::kStateFileName) {}

LoadedRounds StateStore::load(TimePoint now) {
  const std::filesystem::path& file = journal_.file();
  std::error_code error;
  std::filesystem::create_directories(file.parent_path(), error);
  auto loaded = codec::load_state(file, now);
  if (loaded.set_aside) {
    const auto& moved_to = loaded.set_aside->moved_to;
    spdlog::error("state file {} is unreadable ({}); {}; starting with empty history",
                  file.string(), loaded.set_aside->unreadable.message(),
                  moved_to ? "moved aside to " + moved_to->string()
                           : "moving it aside failed: " + moved_to.error().message());
  }
  if (loaded.contents.baselines_dropped) {
    spdlog::error("state file {}: dropping the learned baselines ({}); the rounds are kept",
                  file.string(), loaded.contents.baselines_dropped->message());
  }
  if (loaded.contents.torn_line_dropped) {
    spdlog::warn(
        "state file {}: its last line was cut short (a crash while writing it) and is "
        "dropped",
        file.string());
  }
  spdlog::info("loaded {} rounds from {}", loaded.contents.rounds.size(), file.string());
  return LoadedRounds{std::move(loaded.contents.rounds), std::move(loaded.contents.baselines)};
}

void StateStore::write(const std::vector<const rounds::RoundRecord*>& changed,
                       const std::vector<rounds::RoundRecord>& kept, NodeBaselines& baselines,
                       TimePoint now) {
  if (journal_.compaction_due()) {
    compact(kept, baselines, now);
    return;
  }
  Status written = Ok{};
  for (const rounds::RoundRecord* record : changed) {
    // A migration a ping-pong ban or cool-down must remember survives a power loss; the rounds
    // that moved nothing (a flood of failed rounds among them) need not wait for the disk.
    const bool moves = record->acted() || record->outcome == rounds::RoundOutcome::started;
    written = journal_.append(
        *record, moves ? codec::StateJournal::Sync::yes : codec::StateJournal::Sync::no);
    if (!written) {
      break;
    }
  }
  if (written && baselines.save_due(now)) {
    if (auto added = baselines.added_since_save()) {
      written = journal_.append_baselines(*added);
    }
    if (written) {
      baselines.mark_saved(now);
    }
  }
  log_failure(written);
  if (journal_.compaction_due()) {
    compact(kept, baselines, now);
  }
}

void StateStore::compact(const std::vector<rounds::RoundRecord>& kept, NodeBaselines& baselines,
                         TimePoint now) {
  auto saved = baselines.saved();
  const Status written = journal_.compact(kept, saved ? &*saved : nullptr);
  if (written) {
    baselines.mark_saved(now);
  }
  log_failure(written);
}

void StateStore::log_failure(const Status& written) {
  if (!written && !failing_) {
    spdlog::error("saving state: {}; the next round writes it anew", written.error().message());
  } else if (written && failing_) {
    spdlog::info("saving state works again");
  }
  failing_ = !written;
}

}  // namespace nb::service
