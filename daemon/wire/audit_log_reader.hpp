#pragma once
// Reading the audit log (`[export] audit_log`, written by daemon/codec/audit_log.hpp): the daemon
// answers `history --since` from it, and numabalancerctl reads it straight from the file when
// the daemon is down. Each line is one JSON object whose first member is "time" (RFC 3339), so
// old lines are skipped without parsing them.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "base/units.hpp"

namespace nb::wire {

// The rotated generation of `file`: the log is size-rotated to FILE.1, one generation.
std::filesystem::path rotated_audit_log(const std::filesystem::path& file);

struct AuditEntries {
  std::vector<nlohmann::json> entries;  // oldest first
  // Lines that are not a complete entry: the torn last line of a crash, or garbage.
  std::size_t skipped_lines = 0;
};

// Reads FILE.1, then FILE. Entries older than `since` are left out; a missing file has none.
Result<AuditEntries> read_audit_log(const std::filesystem::path& file,
                                    std::optional<TimePoint> since);

struct AuditTail {
  std::vector<nlohmann::json> entries;  // oldest first
  std::size_t skipped_lines = 0;        // among the lines read
  bool truncated = false;               // the byte cap ended the read before `since` or the start
};

// The newest entries since `since`, read backwards from the end of FILE then FILE.1: stops at
// `max_entries`, at the first line older than `since` (the log is written in time order), or
// after `max_bytes` read, so that its cost does not grow with the log.
Result<AuditTail> read_audit_log_tail(const std::filesystem::path& file,
                                      std::optional<TimePoint> since, std::size_t max_entries,
                                      std::size_t max_bytes);

// `--since`: a duration back from `now` ("90s", "15m", "2h") or an RFC 3339 time.
Result<TimePoint> parse_since(std::string_view text, TimePoint now);

}  // namespace nb::wire
