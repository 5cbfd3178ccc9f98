// numabalancerctl's command table: every command once, in --help order, with the view its
// result is shown in, and arguments that become the request the daemon expects.

#include "daemon/ctl/commands.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "daemon/ctl/human_output.hpp"
#include "tests/daemon/ctl/parse_command.hpp"

namespace nb::ctl {
namespace {

using nlohmann::json;

TEST(CommandTable, EveryCommandHasANameAndHelpOnce) {
  std::set<std::string_view> names;
  for (const Command& command : commands()) {
    EXPECT_FALSE(command.name.empty());
    EXPECT_FALSE(command.help.empty()) << command.name;
    EXPECT_TRUE(names.insert(command.name).second) << command.name;
    EXPECT_EQ(find_command(command.name), &command);
  }
  EXPECT_EQ(find_command("no_such_command"), nullptr);
}

TEST(CommandTable, ListsCommandsInHelpOrder) {
  std::vector<std::string_view> names;
  for (const Command& command : commands()) {
    names.push_back(command.name);
  }
  EXPECT_THAT(names, ::testing::ElementsAre("list_commands", "status", "plan", "history",
                                            "containers", "topology", "snapshot", "metrics",
                                            "pause", "resume", "reconcile", "cancel", "config",
                                            "reload", "dry_run", "migrate", "watch", "top"));
}

TEST(CommandTable, CommandsWithoutAViewPrintTheirJson) {
  const json result{{"job", 3}, {"nodes", {1, 2}}};
  for (const char* name : {"snapshot", "migrate", "no_such_command"}) {
    EXPECT_EQ(format_result(name, result), result.dump(2) + "\n") << name;
  }
}

TEST(CommandTable, ShortRepliesAreOneLine) {
  EXPECT_EQ(format_result("pause", {{"paused", true}}), "paused\n");
  EXPECT_EQ(format_result("resume", {{"paused", false}}), "resumed\n");
  EXPECT_EQ(format_result("dry_run", {{"dry_run", true}}), "dry-run on\n");
  EXPECT_EQ(format_result("dry_run", {{"dry_run", false}}), "dry-run off\n");
  EXPECT_EQ(format_result("cancel", {{"job", 7}}), "cancelling job 7\n");
  EXPECT_EQ(format_result("metrics", {{"text", "nb_rounds 3\n"}}), "nb_rounds 3\n");
  EXPECT_EQ(format_result("reload", {{"restart_needed", {"admin.socket"}}}),
            "configuration reloaded\n  admin.socket changed: takes effect after a restart\n");
}

// The daemon's commands as numabalancerctl types them; one it does not know as the daemon says.
TEST(CommandTable, ListCommandsShowsTheCommandLineSyntax) {
  json result = json::array(
      {{{"name", "dry_run"}, {"mutating", true}, {"help", "Decide but never move: {\"enabled\"}"}},
       {{"name", "plan"}, {"mutating", false}, {"help", "The latest decision; {\"explain\"}"}},
       {{"name", "frobnicate"}, {"mutating", true}, {"help", "Frob"}}});
  EXPECT_EQ(format_result("list_commands", result),
            "COMMAND           CHANGES STATE  WHAT IT DOES\n"
            "dry_run on|off    yes            Decide but never move: on or off\n"
            "plan [--explain]  no             The latest decision\n"
            "frobnicate        yes            Frob\n");
}

TEST(CommandArguments, MigrateNeedsACgroupOrAPid) {
  EXPECT_THROW(parse_command("migrate", {"--from", "1", "--to", "0"}), CLI::ValidationError);
  EXPECT_THROW(
      parse_command("migrate", {"--cgroup", "a", "--pid", "3", "--from", "1", "--to", "0"}),
      CLI::ExcludesError);
  EXPECT_TRUE(parse_command("migrate", {"--cgroup", "a", "--from", "1", "--to", "0"}));
}

TEST(CommandArguments, MigratePageOrderIsOneOfItsThreeNames) {
  for (const char* order : {"auto", "hot_first", "address"}) {
    EXPECT_TRUE(parse_command("migrate",
                              {"--pid", "3", "--from", "1", "--to", "0", "--page-order", order}));
  }
  EXPECT_THROW(parse_command("migrate",
                             {"--pid", "3", "--from", "1", "--to", "0", "--page-order", "hottest"}),
               CLI::ValidationError);
}

TEST(CommandArguments, DryRunTakesOnOrOff) {
  EXPECT_TRUE(parse_command("dry_run", {"on"}));
  EXPECT_THROW(parse_command("dry_run", {"maybe"}), CLI::ValidationError);
  try {
    parse_command("dry_run", {});
    ADD_FAILURE() << "dry_run without on or off parsed";
  } catch (const CLI::ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("on|off"), std::string::npos) << e.what();
  }
}

TEST(CommandArguments, LimitsArePositive) {
  EXPECT_THROW(parse_command("history", {"-n", "0"}), CLI::ValidationError);
  EXPECT_THROW(parse_command("containers", {"-n", "-1"}), CLI::ValidationError);
  EXPECT_TRUE(parse_command("history", {"--since", "15m", "-n", "3"}));
}

}  // namespace
}  // namespace nb::ctl
