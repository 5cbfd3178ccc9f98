#pragma once
// numabalancerctl's command table. A command is its name and help, its arguments (declared on
// its CLI11 subcommand, turned into a request once parsed) and the human view of its result.
// main() adds one subcommand per entry, in the table's order (which --help shows).

#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>

#include "daemon/ctl/requests.hpp"
#include "daemon/ctl/result_views.hpp"

namespace nb::ctl {

struct Command;

// What a parsed command line runs; returns the exit code.
using Action = std::function<int(const Options& options, const Command& command)>;

// Declares a command's arguments on its subcommand. The returned function is called once they
// are parsed and builds the action; it may throw CLI::ValidationError.
using Arguments = std::function<Action()> (*)(CLI::App& subcommand);

struct Command {
  std::string_view name;
  std::string_view help;
  Arguments arguments = nullptr;  // none: the action is the request with no arguments
  Formatter human = nullptr;      // none: the result is printed as JSON
  std::string_view usage = {};    // the command line with its arguments; none: just the name

  // How the command is typed: "plan [--explain]", "status".
  std::string_view syntax() const;
};

// Asks the daemon for the command with these arguments and prints its result.
Action request(nlohmann::json args);

std::span<const Command> commands();
const Command* find_command(std::string_view name);

// Declares the command's arguments on `subcommand`; one without any asks with none.
std::function<Action()> declare_arguments(const Command& command, CLI::App& subcommand);

// The arguments of the commands that have some: query_arguments.cpp and control_arguments.cpp.
std::function<Action()> plan_arguments(CLI::App& subcommand);
std::function<Action()> history_arguments(CLI::App& subcommand);
std::function<Action()> containers_arguments(CLI::App& subcommand);
std::function<Action()> reconcile_arguments(CLI::App& subcommand);
std::function<Action()> dry_run_arguments(CLI::App& subcommand);
std::function<Action()> migrate_arguments(CLI::App& subcommand);
std::function<Action()> watch_arguments(CLI::App& subcommand);
std::function<Action()> top_arguments(CLI::App& subcommand);

}  // namespace nb::ctl
