#include "daemon/service/round_history.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>

namespace nb::service {

namespace {

std::filesystem::path state_file(const config::Config& config) {
  return std::filesystem::path(config.daemon.state_dir) / codec::kStateFileName;
}

}  // namespace

LoadedRounds load_rounds(const config::Config& config, TimePoint now) {
  std::error_code error;
  std::filesystem::create_directories(config.daemon.state_dir, error);
  auto loaded = codec::load_state(state_file(config), now);
  if (loaded.set_aside) {
    const auto& moved_to = loaded.set_aside->moved_to;
    spdlog::error("state file {} is unreadable ({}); {}; starting with empty history",
                  state_file(config).string(), loaded.set_aside->unreadable.message(),
                  moved_to ? "moved aside to " + moved_to->string()
                           : "moving it aside failed: " + moved_to.error().message());
  }
  if (loaded.contents.baselines_dropped) {
    spdlog::error("state file {}: dropping the learned baselines ({}); the rounds are kept",
                  state_file(config).string(), loaded.contents.baselines_dropped->message());
  }
  LoadedRounds result;
  result.rounds = std::move(loaded.contents.rounds);
  result.baselines = std::move(loaded.contents.baselines);
  result.history = codec::to_history(result.rounds);
  codec::keep_newest_full_reports(result.rounds, kFullReportsKept);
  for (const auto& record : result.rounds) {
    result.next_round_number = std::max(result.next_round_number, record.number + 1);
  }
  spdlog::info("loaded {} rounds from {}", result.rounds.size(), state_file(config).string());
  return result;
}

void save_rounds(const config::Config& config, const std::vector<codec::RoundRecord>& rounds,
                 const codec::SavedBaselines* baselines) {
  if (auto saved = codec::save_state(state_file(config), rounds, baselines); !saved) {
    spdlog::error("saving state: {}", saved.error().message());
  }
}

codec::RoundRecord new_round_record(std::uint64_t number, TimePoint time, std::string trigger) {
  codec::RoundRecord record;
  record.number = number;
  record.time = time;
  record.trigger = std::move(trigger);
  record.status = codec::RoundStatus::scanning;
  record.outcome = codec::RoundOutcome::pending;
  return record;
}

void remember(std::vector<codec::RoundRecord>& rounds, core::History& history,
              codec::RoundRecord record, std::size_t keep) {
  job_ended(history, record);
  rounds.push_back(std::move(record));
  if (rounds.size() <= keep) {
    return;
  }
  // Walking from the newest: a round stays if it is among the newest `keep`, or if it acted and
  // fewer than `keep` newer rounds did. So a flood of rounds that acted on nothing (a pressure
  // nothing relieves fails every interval) never pushes out the migrations that ping-pong bans
  // and cool-downs are read from; and the acted rounds dropped are always the oldest ones.
  std::size_t newer = 0;
  std::size_t newer_acted = 0;
  std::size_t acted_dropped = 0;
  std::vector<bool> stays(rounds.size());
  for (std::size_t i = rounds.size(); i-- > 0; ++newer) {
    bool acted = rounds[i].acted();
    stays[i] = newer < keep || (acted && newer_acted < keep);
    acted_dropped += acted && !stays[i] ? 1 : 0;
    newer_acted += acted ? 1 : 0;
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    if (!stays[i]) {
      continue;
    }
    if (kept != i) {
      rounds[kept] = std::move(rounds[i]);
    }
    ++kept;
  }
  rounds.resize(kept);
  history.erase(history.begin(), history.begin() + static_cast<std::ptrdiff_t>(acted_dropped));
}

void job_ended(core::History& history, const codec::RoundRecord& record) {
  if (auto entry = codec::history_entry(record)) {
    history.push_back(std::move(*entry));
  }
}

codec::RoundRecord* find_round(std::vector<codec::RoundRecord>& rounds, std::uint64_t number) {
  for (auto it = rounds.rbegin(); it != rounds.rend(); ++it) {
    if (it->number == number) {
      return &*it;
    }
  }
  return nullptr;
}

}  // namespace nb::service
