#include "daemon/service/admin/daemon_commands.hpp"

namespace nb::service {

namespace {

using Run = CommandOutcome (*)(DaemonView&, const nlohmann::json&, CommandContext&);

struct DaemonCommand {
  const char* name;
  const char* help;
  Access access;
  Run run;
};

const DaemonCommand kCommands[] = {
    {"status",
     "Running, paused or dry-run; the last round; the current job's progress; provider health",
     Access::read_only, commands::status},
    {"plan", "The latest decision; {\"explain\": true} adds the reasoning", Access::read_only,
     commands::plan},
    {"history",
     "The last rounds that decided something, with their migration reports ({\"limit\": N}, "
     "default 20); {\"since\": \"2h\" | TIME} reads the audit log",
     Access::read_only, commands::history},
    {"containers", "The watched containers, largest first ({\"limit\": N})", Access::read_only,
     commands::containers},
    {"topology", "Nodes (CPUs, distances, memory, latest metrics) and pools", Access::read_only,
     commands::topology},
    {"snapshot",
     "The latest snapshot document, with the daemon's history (input for `plan --snapshot`)",
     Access::read_only, commands::snapshot},
    {"metrics", "Prometheus text exposition of what the daemon knows", Access::read_only,
     commands::metrics},
    {"pause", "Keep deciding but start no migration until resume", Access::mutating,
     commands::pause},
    {"resume", "Act on decisions again", Access::mutating, commands::resume},
    {"reconcile",
     "Run a round now; the reply names the round, `watch`, `status` and `history` show what it "
     "decided",
     Access::mutating, commands::reconcile},
    {"dry_run", "Decide but never move: {\"enabled\": true|false}", Access::mutating,
     commands::dry_run},
    {"migrate",
     "A manual job: {\"cgroup\": PATH | \"pid\": N, \"from\": N, \"to\": [M,...], "
     "\"max_bytes\", \"rate\", \"dry_run\"}",
     Access::mutating, commands::migrate},
    {"cancel", "Cancel the running job at its next batch", Access::mutating, commands::cancel},
    {"config", "The effective configuration", Access::read_only, commands::config},
    {"reload", "Re-read the configuration file; an invalid one is rejected", Access::mutating,
     commands::reload},
    {"watch",
     "Stream events on this connection: round, job_started, job_progress, job_done, eviction, "
     "config_reloaded",
     Access::read_only, commands::watch},
};

}  // namespace

void register_daemon_commands(CommandTable& table, DaemonView& daemon) {
  for (const auto& command : kCommands) {
    table.add(command.name, command.help, command.access,
              [&daemon, run = command.run](const nlohmann::json& args, CommandContext& context) {
                return run(daemon, args, context);
              });
  }
}

}  // namespace nb::service
