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

// What the daemon knows (status_commands.cpp); none changes anything.
CommandOutcome status(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome plan(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome history(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome containers(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome topology(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome snapshot(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome metrics(DaemonView& daemon, const Args& args, CommandContext& context);
// For a peer without admin rights, a non-empty eviction.exec is [kHiddenForReadOnly].
CommandOutcome config(DaemonView& daemon, const Args& args, CommandContext& context);
inline constexpr const char* kHiddenForReadOnly = "<hidden: admin only>";

// Steering the loop (control_commands.cpp).
CommandOutcome pause(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome resume(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome reconcile(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome dry_run(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome cancel(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome reload(DaemonView& daemon, const Args& args, CommandContext& context);
CommandOutcome watch(DaemonView& daemon, const Args& args, CommandContext& context);

// A manual job (migrate_command.cpp).
CommandOutcome migrate(DaemonView& daemon, const Args& args, CommandContext& context);

}  // namespace commands
}  // namespace nb::service
