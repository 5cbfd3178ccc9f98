// The --help reader the documentation tests rely on: if it found nothing, they would pass
// vacuously.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/docs/cli_help.hpp"

namespace nb::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kHelp = R"(tool - does things
Usage: tool [OPTIONS] SUBCOMMAND

Options:
  -h,--help                   Print this help message and exit
  -s,--socket TEXT            Admin socket
  --json                      Raw JSON
  --max-bytes TEXT            A size, e.g. 512MiB

Subcommands:
  list_commands               List the commands
  dry_run, dry-run            Decide but never move
  top                         Live view
)";

TEST(CliHelp, ReadsLongOptionsWithAndWithoutShortNames) {
  EXPECT_THAT(parse_cli_help(kHelp).long_options,
              ElementsAre("--help", "--socket", "--json", "--max-bytes"));
}

TEST(CliHelp, ReadsSubcommandsWithTheirAliases) {
  EXPECT_THAT(parse_cli_help(kHelp).subcommands,
              ElementsAre("list_commands", "dry_run", "dry-run", "top"));
  EXPECT_THAT(parse_cli_help(kHelp).aliases, ElementsAre("dry-run"));
}

TEST(CliHelp, ReadsUpperCaseHeadingsOfNewerCli11) {
  CliHelp help = parse_cli_help("OPTIONS:\n  --json  x\nSUBCOMMANDS:\n  status  y\n");
  EXPECT_THAT(help.long_options, ElementsAre("--json"));
  EXPECT_THAT(help.subcommands, ElementsAre("status"));
}

TEST(CliHelp, IgnoresTheUsageAndDescriptionLines) {
  CliHelp help = parse_cli_help("tool - does --things\nUsage: tool --json\n");
  EXPECT_THAT(help.long_options, IsEmpty());
  EXPECT_THAT(help.subcommands, IsEmpty());
}

}  // namespace
}  // namespace nb::testing
