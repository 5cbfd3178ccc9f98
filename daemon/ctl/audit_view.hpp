#pragma once
// `numabalancerctl history --since`: the audit log's entries as an operator reads them. They come
// from the daemon (which reads its own [export] audit_log) or, with --audit-log FILE, straight
// from the file, so the history of a daemon that is down or crashed can still be read.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace nb::ctl {

// {"entries": [...], "skipped_lines": N, "truncated": B}: a line per round, per job and per
// measured effect and per state-changing command, oldest first, in the columns of the kept rounds
// (history_view.cpp); a note when the daemon's read cap ended the entries.
std::string format_audit_entries(const nlohmann::json& result);

// Reads the file (and its rotated FILE.1) and prints what happened since `since` (empty: all),
// the newest `limit` entries when given. Exit codes as numabalancerctl's: 0 ok, 1 the file could
// not be read, 2 bad usage.
int print_audit_log(const std::string& file, const std::string& since,
                    std::optional<long long> limit, bool json_output);

}  // namespace nb::ctl
