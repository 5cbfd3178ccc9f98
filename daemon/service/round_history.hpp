#pragma once
// The rounds the daemon keeps: those that decided something, the newest last, bounded, and saved
// to the state file in [daemon] state_dir after every change so that a restart keeps the history
// the policy reads (ping-pong bans, cool-downs).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/units.hpp"
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
  std::uint64_t next_round_number = 1;
};
LoadedRounds load_rounds(const config::Config& config, TimePoint now);
// Logs, rather than returns, a failure: the daemon carries on with its history in memory.
void save_rounds(const config::Config& config, const std::vector<codec::RoundRecord>& rounds);

void remember(std::vector<codec::RoundRecord>& rounds, codec::RoundRecord record);
codec::RoundRecord* find_round(std::vector<codec::RoundRecord>& rounds, std::uint64_t number);

}  // namespace nb::service
