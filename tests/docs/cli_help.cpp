#include "tests/docs/cli_help.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include "tests/docs/command_output.hpp"

namespace nb::testing {

CliHelp parse_cli_help(std::string_view help_text) {
  // CLI11 prints "Options:" and "Subcommands:" headings (upper case in newer releases), then one
  // indented entry per line; an option entry starts with its names ("-c,--config TEXT"), a
  // subcommand entry with its name.
  static const std::regex kHeading(R"(^([A-Za-z]+):\s*$)");
  static const std::regex kOption(R"(^\s+(?:-\w,)?(--[a-z][a-z0-9-]*))");
  // An entry with aliases lists them after its name: "  dry_run, dry-run   Decide ...".
  static const std::regex kSubcommand(R"(^\s+([a-z][a-z0-9_-]*(?:, [a-z][a-z0-9_-]*)*)(?:\s|$))");

  CliHelp help;
  std::string section;
  for (const std::string& line : split_lines(help_text)) {
    std::smatch match;
    if (std::regex_match(line, match, kHeading)) {
      section = match[1];
      std::transform(section.begin(), section.end(), section.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    } else if (section == "options" && std::regex_search(line, match, kOption)) {
      help.long_options.push_back(match[1]);
    } else if (section == "subcommands" && std::regex_search(line, match, kSubcommand)) {
      std::string names = match[1];
      for (std::size_t start = 0; start <= names.size();) {
        std::size_t comma = names.find(", ", start);
        help.subcommands.push_back(names.substr(start, comma - start));
        if (start > 0) {
          help.aliases.push_back(help.subcommands.back());
        }
        start = comma == std::string::npos ? names.size() + 1 : comma + 2;
      }
    }
  }
  return help;
}

}  // namespace nb::testing
