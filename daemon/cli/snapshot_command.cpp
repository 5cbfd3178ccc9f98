#include "daemon/cli/commands.hpp"

#include <iostream>

namespace nb::cli {

void add_snapshot_command(CLI::App& app, const GlobalOptions&, int& exit_code) {
  auto* command = app.add_subcommand("snapshot", "(being built)");
  command->callback([&exit_code] {
    std::cerr << "numabalancerd snapshot: not available in this build\n";
    exit_code = 2;
  });
}

}  // namespace nb::cli
