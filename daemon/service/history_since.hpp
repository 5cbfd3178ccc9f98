#pragma once
// `history` with {"since": "2h" | "2026-12-02T10:00:00Z", "limit": N}: what happened since then.
// With [export] audit_log on, the answer comes from the audit log (it outlives the rounds kept in
// memory and holds each job's full report): {"since", "audit_log", "entries", "skipped_lines",
// "truncated"}. The log is read backwards on the loop thread, so a request reads at most
// kHistoryReadBytes of it; "truncated" says that the cap, not `since`, ended the entries.
// Without it, from the kept rounds: {"since", "rounds"}, the shape of plain `history`. A limit
// keeps the newest N.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "base/units.hpp"
#include "daemon/codec/state_file.hpp"
#include "daemon/config/config.hpp"
#include "daemon/service/admin/command_table.hpp"

namespace nb::service {

inline constexpr std::size_t kHistoryReadBytes = 4 * 1024 * 1024;

// A kept round as `history` lists it: the record and whether it acted (moved or evicted), so that
// a failed, paused or dry-run round reads as one that did nothing. The state file, which must
// read back the same, leaves the derived "acted" out.
nlohmann::json history_round_json(const rounds::RoundRecord& record);

CommandOutcome history_since(const nlohmann::json& args, const config::ExportConfig& config,
                             const std::vector<rounds::RoundRecord>& rounds, TimePoint now);

}  // namespace nb::service
