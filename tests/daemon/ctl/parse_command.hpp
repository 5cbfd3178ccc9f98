#pragma once
// A numabalancerctl command line parsed the way main() does: the command's subcommand with its
// arguments, and the action they build. Parse errors throw as CLI11 throws them.

#include <algorithm>
#include <string>
#include <vector>

#include "daemon/ctl/commands.hpp"

namespace nb::ctl {

inline Action parse_command(std::string_view name, std::vector<std::string> args) {
  CLI::App app;
  const Command* command = find_command(name);
  auto* subcommand = app.add_subcommand(std::string(name));
  auto build = declare_arguments(*command, *subcommand);
  Action action;
  subcommand->callback([&] { action = build(); });
  args.insert(args.begin(), std::string(name));
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector of arguments last first
  app.parse(args);
  return action;
}

}  // namespace nb::ctl
