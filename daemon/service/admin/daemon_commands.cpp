#include "daemon/service/admin/daemon_commands.hpp"

#include <exception>
#include <variant>

namespace nb::service {

namespace {

using Run = commands::Command*;

// Whether a command leaves the audit trail (who ran it, with what result): those that change
// what the daemon does, but for `reconcile`, whose round is its record.
enum class Trail { none, audited };

struct DaemonCommand {
  const char* name;
  const char* help;
  Access access;
  Run run;
  Trail trail = Trail::none;
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
     commands::pause, Trail::audited},
    {"resume", "Act on decisions again", Access::mutating, commands::resume, Trail::audited},
    {"reconcile",
     "Run a round now; the reply names the round, `watch`, `status` and `history` show what it "
     "decided",
     Access::mutating, commands::reconcile},
    {"dry_run", "Decide but never move: {\"enabled\": true|false}", Access::mutating,
     commands::dry_run, Trail::audited},
    {"migrate",
     "A manual job: {\"cgroup\": PATH | \"pid\": N, \"from\": N, \"to\": [M,...], "
     "\"max_bytes\", \"rate\", \"dry_run\"}",
     Access::mutating, commands::migrate, Trail::audited},
    {"cancel", "Cancel the running job at its next batch", Access::mutating, commands::cancel,
     Trail::audited},
    {"config", "The effective configuration", Access::read_only, commands::config},
    {"reload", "Re-read the configuration file; an invalid one is rejected", Access::mutating,
     commands::reload, Trail::audited},
    {"watch",
     "Stream events on this connection: round, job_started, job_progress, job_done, eviction, "
     "config_reloaded",
     Access::read_only, commands::watch},
};

// Runs the command and records it, whatever came of it: an error reply, or an exception, which
// the table then turns into one.
CommandOutcome run_audited(const DaemonCommand& command, DaemonView& daemon,
                           const nlohmann::json& args, CommandContext& context) {
  codec::CommandAudit audit{
      .command = command.name, .via = "socket", .args = args.is_object() ? args : nlohmann::json()};
  if (context.caller) {
    audit.uid = context.caller->uid;
    audit.pid = context.caller->pid;
  }
  std::exception_ptr thrown;
  CommandOutcome outcome;
  try {
    outcome = command.run(daemon, args, context);
    if (const auto* error = std::get_if<wire::ErrorReply>(&outcome)) {
      audit.error = error->message;
    }
  } catch (const std::exception& e) {
    audit.error = e.what();
    thrown = std::current_exception();
  }
  daemon.record_command(audit);
  if (thrown) {
    std::rethrow_exception(thrown);
  }
  return outcome;
}

}  // namespace

void register_daemon_commands(CommandTable& table, DaemonView& daemon) {
  for (const auto& command : kCommands) {
    table.add(command.name, command.help, command.access,
              [&daemon, &command](const nlohmann::json& args, CommandContext& context) {
                return command.trail == Trail::audited ? run_audited(command, daemon, args, context)
                                                       : command.run(daemon, args, context);
              });
  }
}

}  // namespace nb::service
