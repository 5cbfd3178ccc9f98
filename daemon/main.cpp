// numabalancerd: the daemon, and its offline subcommands. Wiring only.

#include <CLI/CLI.hpp>

#include "daemon/cli/commands.hpp"
#include "numabalancer_version.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "numabalancerd - keeps memory-latency-sensitive workloads off overloaded NUMA nodes"};
  app.set_version_flag("--version", std::string("numabalancerd ") + NUMABALANCER_VERSION);

  // Global options may also follow a subcommand: `numabalancerd plan --config FILE ...`.
  app.fallthrough();
  nb::cli::GlobalOptions global;
  app.add_option("-c,--config", global.config_path, "Configuration file (TOML)");
  app.add_option("--log-level", global.log_level,
                 "trace, debug, info, warn, error, critical or off (overrides [daemon] log_level)");
  app.add_option("--check-config", global.check_config_path,
                 "Validate a configuration file: print OK, or every error with its line");

  int exit_code = 0;
  nb::cli::add_plan_command(app, global, exit_code);
  nb::cli::add_snapshot_command(app, global, exit_code);
  nb::cli::add_migrate_command(app, global, exit_code);
  nb::cli::add_simulate_command(app, global, exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (!global.check_config_path.empty()) {
    return nb::cli::run_check_config(global);
  }
  if (app.get_subcommands().empty()) {
    return nb::cli::run_daemon(global);
  }
  return exit_code;
}
