// The commands that steer the loop: pause and resume, dry-run, a round now, cancelling the job,
// reloading the configuration, and watching the events. Who ran them, and with what result, is
// logged by their registration (daemon_commands.cpp), once for each.

#include "daemon/service/admin/command_args.hpp"
#include "daemon/service/admin/daemon_commands.hpp"

namespace nb::service::commands {

using nlohmann::json;

CommandOutcome pause(DaemonView& daemon, const Args&, CommandContext&) {
  daemon.set_paused(true);
  return json{{"paused", true}};
}

CommandOutcome resume(DaemonView& daemon, const Args&, CommandContext&) {
  daemon.set_paused(false);
  return json{{"paused", false}};
}

CommandOutcome reconcile(DaemonView& daemon, const Args&, CommandContext&) {
  if (daemon.state().stopping) {
    return wire::ErrorReply{wire::ErrorCode::busy, "the daemon is stopping"};
  }
  // The reply cannot wait for the scan: the loop thread answers everyone.
  bool joined = daemon.state().scanning.has_value();
  auto record = daemon.begin_round("reconcile");
  return json{{"round", codec::to_json(record)}, {"pending", true}, {"joined", joined}};
}

CommandOutcome dry_run(DaemonView& daemon, const Args& args, CommandContext&) {
  auto enabled = bool_arg(args, "enabled");
  if (!enabled) {
    return bad_request(enabled.error());
  }
  if (!enabled.value()) {
    return bad_request("\"enabled\": true or false is required");
  }
  daemon.set_dry_run(**enabled);
  return json{{"dry_run", daemon.state().dry_run}};
}

CommandOutcome cancel(DaemonView& daemon, const Args&, CommandContext&) {
  const RunningJob* job = daemon.job();
  if (job == nullptr) {
    return command_failed("no migration job is running");
  }
  daemon.cancel_job();
  return json{{"job", job->id}, {"cancelling", true}};
}

CommandOutcome reload(DaemonView& daemon, const Args&, CommandContext&) {
  auto reloaded = daemon.reload();
  if (!reloaded) {
    return command_failed(std::move(reloaded.error().context));
  }
  return json{{"reloaded", true}, {"restart_needed", reloaded->restart_needed}};
}

CommandOutcome watch(DaemonView&, const Args&, CommandContext& context) {
  context.start_watching = true;
  return json{{"watching", true}};
}

}  // namespace nb::service::commands
