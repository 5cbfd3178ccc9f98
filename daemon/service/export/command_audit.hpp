#pragma once
// The trail of state-changing commands: each admin command that changes what the daemon does
// (pause, resume, dry_run, cancel, migrate, reload) and each SIGHUP reload leaves one log line
// and one audit log entry that name who asked (the peer's uid and pid) and what came of it.

#include <string>

#include "base/units.hpp"
#include "daemon/codec/audit_log.hpp"
#include "daemon/config/config.hpp"
#include "daemon/service/export/audit_log.hpp"

namespace nb::service {

// "pause over the admin socket by uid 0 pid 4242: ok",
// "reload on SIGHUP: failed: configuration rejected, …" (the error's lines joined).
std::string command_log_line(const codec::CommandAudit& command);

// Logs the line (a warning when the command failed) and appends the audit entry.
void audit_command(AuditLog& log, const config::ExportConfig& config, TimePoint now,
                   const codec::CommandAudit& command);

}  // namespace nb::service
