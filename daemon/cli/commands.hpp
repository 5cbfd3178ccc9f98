#pragma once
// numabalancerd's subcommands. Each file in daemon/cli registers one with its own options;
// main.cpp only wires them. The exit code a subcommand wants is written to `exit_code`.

#include <CLI/CLI.hpp>

namespace nb::cli {

struct GlobalOptions {
  std::string config_path;        // empty: built-in defaults
  std::string log_level;          // empty: from config
  std::string check_config_path;  // --check-config FILE
};

// `--check-config FILE`: prints OK (exit 0) or every error (exit 2).
int run_check_config(const GlobalOptions& global);
void add_plan_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_snapshot_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_migrate_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_simulate_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
// The daemon itself: what runs when no subcommand is given.
int run_daemon(const GlobalOptions& global);

}  // namespace nb::cli
