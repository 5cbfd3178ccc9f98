#pragma once
// What a CLI11 program says it accepts, read from its --help text, so that the documentation
// tests follow the binaries instead of a list copied into the tests.

#include <string>
#include <string_view>
#include <vector>

namespace nb::testing {

struct CliHelp {
  std::vector<std::string> long_options;  // "--config", in the order listed
  std::vector<std::string> subcommands;   // "plan", and aliases too
  std::vector<std::string> aliases;       // "dry-run": the names after an entry's first
};

CliHelp parse_cli_help(std::string_view help_text);

}  // namespace nb::testing
