#pragma once
// The rounds the daemon keeps: those that decided something, the newest last, bounded, and saved
// to the state file in [daemon] state_dir after every change so that a restart keeps the history
// the policy reads (ping-pong bans, cool-downs).
//
// That history (core::History, the acted rounds) is built from the records once, when the state
// file is loaded, and then kept in step by remember and job_ended rather than rebuilt every round:
// it always equals codec::to_history(rounds).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "core/history.hpp"
#include "daemon/codec/state_file.hpp"
#include "daemon/config/config.hpp"

namespace nb::service {

// The state file holds a summary of every kept round and the full report of the newest few;
// a full report keeps at most this many processes per container.
inline constexpr std::size_t kRoundsKept = 500;
inline constexpr std::size_t kFullReportsKept = 5;
inline constexpr std::size_t kProcessesPerContainerKept = 100;

// Reads the state file; an unreadable one is moved aside (and logged) and the history starts
// empty. Returns the rounds and the number the next round takes.
struct LoadedRounds {
  std::vector<codec::RoundRecord> rounds;
  core::History history;
  std::uint64_t next_round_number = 1;
  // The readings behind learned baselines; a malformed part is logged and left out.
  std::optional<codec::SavedBaselines> baselines;
};
LoadedRounds load_rounds(const config::Config& config, TimePoint now);
// Logs, rather than returns, a failure: the daemon carries on with its history in memory.
void save_rounds(const config::Config& config, const std::vector<codec::RoundRecord>& rounds,
                 const codec::SavedBaselines* baselines = nullptr);
// A round as it starts: numbered, stamped, scanning.
codec::RoundRecord new_round_record(std::uint64_t number, TimePoint time, std::string trigger);

// Appends a round, keeping the newest kRoundsKept (or `keep`) rounds and, beyond them, the newest
// `keep` rounds that acted; the history stays in step.
void remember(std::vector<codec::RoundRecord>& rounds, core::History& history,
              codec::RoundRecord record, std::size_t keep = kRoundsKept);
// A kept round whose job ended, after its record was updated: if it acted, the history gains
// it. One job runs at a time, so no later kept round has acted and appending keeps the order.
void job_ended(core::History& history, const codec::RoundRecord& record);
codec::RoundRecord* find_round(std::vector<codec::RoundRecord>& rounds, std::uint64_t number);

}  // namespace nb::service
