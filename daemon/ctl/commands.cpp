#include "daemon/ctl/commands.hpp"

#include <array>

namespace nb::ctl {

namespace {

// In the order `numabalancerctl --help` lists them.
const std::array<Command, 18> kCommands{{
    {"list_commands", "List the daemon's admin commands", nullptr, format_list_commands},
    {"status", "Running, paused or dry-run; the last round; the job's progress; providers", nullptr,
     format_status},
    {"plan", "The latest decision", plan_arguments, format_plan, "plan [--explain]"},
    {"history", "The last rounds with their migration reports", history_arguments, format_history,
     "history [-n N] [--since WHEN] [--audit-log FILE]"},
    {"containers", "The watched containers, largest first", containers_arguments, format_containers,
     "containers [-n N]"},
    {"topology", "Nodes, distances, memory and metrics; pools", nullptr, format_topology},
    {"snapshot", "The latest snapshot document (JSON)", nullptr, nullptr},
    {"metrics", "Prometheus text exposition", nullptr, format_metrics},
    {"pause", "Keep deciding but move nothing until resume", nullptr, format_paused},
    {"resume", "Act on decisions again", nullptr, format_paused},
    {"reconcile", "Run a round now and show what it decided", reconcile_arguments,
     format_reconcile},
    {"cancel", "Cancel the running migration job", nullptr, format_cancel},
    {"config", "The effective configuration", nullptr, format_config},
    {"reload", "Re-read the configuration file (an invalid one is rejected)", nullptr,
     format_reload},
    {"dry_run", "Decide but never move: on or off", dry_run_arguments, format_dry_run,
     "dry_run on|off"},
    {"migrate", "Start a manual migration job and follow it", migrate_arguments, nullptr,
     "migrate (--cgroup PATH | --pid PID) --from N --to M[,K...] [options]"},
    {"watch", "Stream the daemon's events", watch_arguments, nullptr, "watch [-n N]"},
    {"top", "Live view per node; q or Ctrl-C quits", top_arguments, nullptr,
     "top [-i SECONDS] [-n N]"},
}};

}  // namespace

Action request(nlohmann::json args) {
  return [args = std::move(args)](const Options& options, const Command& command) {
    return ask(options, std::string(command.name), args, command.human);
  };
}

std::string_view Command::syntax() const {
  return usage.empty() ? name : usage;
}

std::span<const Command> commands() {
  return kCommands;
}

const Command* find_command(std::string_view name) {
  for (const Command& command : kCommands) {
    if (command.name == name) {
      return &command;
    }
  }
  return nullptr;
}

std::function<Action()> declare_arguments(const Command& command, CLI::App& subcommand) {
  if (command.arguments != nullptr) {
    return command.arguments(subcommand);
  }
  return [] { return request(nlohmann::json::object()); };
}

}  // namespace nb::ctl
