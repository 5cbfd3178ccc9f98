#pragma once
// The audit log (`[export] audit_log`): what the daemon decided and what its jobs did, one JSON
// object per line, "time" (RFC 3339) and "kind" first so that a reader can skip old lines
// without parsing them:
//   {"time", "kind": "round", "round": N, "trigger", "outcome", "reason", "decision": {...}}
//       one per round that decided something (the decision document, no explanation; null when
//       reading the host failed);
//   {"time", "kind": "job", "job": ID, "round": N, "trigger", "outcome", "moved_bytes",
//    "evicted": [ids], "error", "report": {...}}
//       one per finished job, with its full migration report (daemon/codec/report_json.hpp).
// The file is size-rotated to FILE.1, one generation: the log holds between max and twice max
// bytes of the most recent history, enough to explain the last days; ship it elsewhere (journald,
// a log collector) when longer retention is needed.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actuator/migration_report.hpp"
#include "core/decision.hpp"
#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/codec/state_file.hpp"

namespace nb::codec {

nlohmann::json audit_round_entry(const RoundRecord& record, const core::Decision* decision);
nlohmann::json audit_job_entry(TimePoint finished, std::uint64_t job_id, const RoundRecord& record,
                               const actuator::MigrationReport* report);

// One line, '\n' included, "time" and "kind" first.
std::string to_audit_line(const nlohmann::json& entry);

// The rotated generation of `file`.
std::filesystem::path rotated_audit_log(const std::filesystem::path& file);

struct AuditEntries {
  std::vector<nlohmann::json> entries;  // oldest first
  // Lines that are not a complete entry: the torn last line of a crash, or garbage.
  std::size_t skipped_lines = 0;
};

// Reads FILE.1, then FILE. Entries older than `since` are left out; a missing file has none.
Result<AuditEntries> read_audit_log(const std::filesystem::path& file,
                                    std::optional<TimePoint> since);

// `--since`: a duration back from `now` ("90s", "15m", "2h") or an RFC 3339 time.
Result<TimePoint> parse_since(std::string_view text, TimePoint now);

}  // namespace nb::codec
