#pragma once
// The running daemon's admin commands: free functions over a DaemonView, grouped by topic
// (status_commands.cpp, control_commands.cpp, migrate_command.cpp), registered from one table in
// daemon_commands.cpp.

#include <nlohmann/json.hpp>

#include "daemon/service/admin/command_table.hpp"
#include "daemon/service/admin/daemon_view.hpp"

namespace nb::service {

void register_daemon_commands(CommandTable& table, DaemonView& daemon);

namespace commands {

using Args = nlohmann::json;
// Every command's signature: what a row of the table in daemon_commands.cpp calls.
using Command = CommandOutcome(DaemonView& daemon, const Args& args, CommandContext& context);

// What the daemon knows (status_commands.cpp); none changes anything. For a peer without admin
// rights, `config` shows a non-empty eviction.exec as [kHiddenForReadOnly].
Command status, plan, history, containers, topology, snapshot, metrics, config;
inline constexpr const char* kHiddenForReadOnly = "<hidden: admin only>";

// Steering the loop (control_commands.cpp).
Command pause, resume, reconcile, dry_run, cancel, reload, watch;

// A manual job (migrate_command.cpp).
Command migrate;

}  // namespace commands
}  // namespace nb::service
