#pragma once
// The audit log (`[export] audit_log`): what the daemon decided and what its jobs did, one JSON
// object per line, "time" (RFC 3339) and "kind" first so that a reader can skip old lines
// without parsing them:
//   {"time", "kind": "round", "round": N, "trigger", "outcome", "reason", "decision": {...}}
//       one per round that decided something (the decision document, no explanation; null when
//       reading the host failed);
//   {"time", "kind": "job", "job": ID, "round": N, "trigger", "outcome", "moved_bytes",
//    "evicted": [ids], "error", "report": {...}}
//       one per finished job, with its full migration report (daemon/codec/report_json.hpp);
//   {"time", "kind": "effect", "round": N, "source_node", "dest_nodes", "result",
//    "effect": {...} or null, "effect_reason"}
//       one per round whose effect was measured (or could not be), effect_delay after its job;
//   {"time", "kind": "command", "command", "via", "args", "uid", "pid", "result", "error"}
//       one per state-changing admin command (pause, resume, dry_run, cancel, migrate, reload)
//       and per SIGHUP reload: "via" is "socket" or "SIGHUP", "uid" and "pid" the socket peer's
//       or the signal's sender (null when unknown: a peer without credentials, a SIGHUP the
//       kernel raised), "result" "ok" or "failed" with the "error" (else null).
// A round entry whose round ended without a job says "acted": false; a started round's job
// entry says what it did.
// The file is size-rotated to FILE.1, one generation: the log holds between max and twice max
// bytes of the most recent history, enough to explain the last days; ship it elsewhere (journald,
// a log collector) when longer retention is needed. Reading it is daemon/wire/audit_log_reader.hpp,
// which numabalancerctl links without the rest of the codec.

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "actuator/migration_report.hpp"
#include "base/result.hpp"
#include "base/units.hpp"
#include "core/decision.hpp"
#include "daemon/codec/state_file.hpp"

namespace nb::codec {

nlohmann::json audit_round_entry(const rounds::RoundRecord& record, const core::Decision* decision);
nlohmann::json audit_job_entry(TimePoint finished, std::uint64_t job_id,
                               const rounds::RoundRecord& record,
                               const actuator::MigrationReport* report);

nlohmann::json audit_effect_entry(TimePoint measured, const rounds::RoundRecord& record);

// A state-changing command and who asked: the trail an operator reads to learn who paused the
// daemon or started a migration.
struct CommandAudit {
  std::string command;  // as the admin protocol names it: "pause", "dry_run", "reload", ...
  std::string via;      // "socket" or the signal, "SIGHUP"
  nlohmann::json args = nlohmann::json::object();
  // The peer's, from its socket credentials, or the signal's sender; none when unknown.
  std::optional<uid_t> uid = std::nullopt;
  std::optional<pid_t> pid = std::nullopt;
  std::optional<std::string> error = std::nullopt;  // none: it succeeded
};

nlohmann::json audit_command_entry(TimePoint time, const CommandAudit& command);

// One line, '\n' included, "time" and "kind" first: wire::read_audit_log skips old lines by it.
std::string to_audit_line(const nlohmann::json& entry);

}  // namespace nb::codec
