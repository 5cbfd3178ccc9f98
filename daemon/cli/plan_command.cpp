#include "daemon/cli/commands.hpp"

#include <iostream>

namespace nb::cli {

void add_plan_command(CLI::App& app, const GlobalOptions&, int& exit_code) {
  auto* command = app.add_subcommand("plan", "(being built)");
  command->callback([&exit_code] {
    std::cerr << "numabalancerd plan: not available in this build\n";
    exit_code = 2;
  });
}

}  // namespace nb::cli
