// The bash completion is sourced into a plain bash (no bash-completion package, no rc files) and
// asked for candidates the way bash asks it: COMP_WORDS and COMP_CWORD, then the function.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "tests/docs/cli_help.hpp"
#include "tests/docs/command_output.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::testing {
namespace {

using ::testing::IsSupersetOf;
using ::testing::UnorderedElementsAreArray;

const std::string kCompletionFile =
    (std::filesystem::path(NB_SOURCE_DIR) / "packaging" / "numabalancerctl.bash-completion")
        .string();

std::string bash(const std::string& script, const std::vector<std::string>& args = {}) {
  std::string command =
      "bash --norc --noprofile -c " + shell_quote(script) + " bash " + shell_quote(kCompletionFile);
  for (const std::string& arg : args) {
    command += " " + shell_quote(arg);
  }
  CommandOutput out = run_command(command);
  EXPECT_EQ(out.exit_code, 0) << out.output;
  return out.output;
}

// The words of the command line so far; the last one is the word being completed. `setup` runs
// after the completion is sourced (to point it at a fake mount table).
std::vector<std::string> candidates(const std::vector<std::string>& words,
                                    const std::string& setup = "") {
  std::string script = R"(source "$1" || exit 1; shift
)" + setup + R"(
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
_numabalancerctl
printf '%s\n' "${COMPREPLY[@]}")";
  std::vector<std::string> lines = split_lines(bash(script, words));
  std::erase(lines, "");
  return lines;
}

// What numabalancerctl (or one of its subcommands) says it accepts.
CliHelp ctl_help(const std::string& subcommand = "") {
  std::string command =
      shell_quote((std::filesystem::path(NB_BINARY_DIR) / "numabalancerctl").string());
  if (!subcommand.empty()) {
    command += " " + subcommand;
  }
  CommandOutput out = run_command(command + " --help");
  EXPECT_EQ(out.exit_code, 0) << command << " --help:\n" << out.output;
  return parse_cli_help(out.output);
}

TEST(BashCompletion, RegistersAFunctionForNumabalancerctl) {
  std::string out = bash(R"(source "$1" && complete -p numabalancerctl)");
  EXPECT_EQ(out, "complete -F _numabalancerctl numabalancerctl\n");
}

TEST(BashCompletion, SourcingPrintsNothing) {
  EXPECT_EQ(bash(R"(source "$1")"), "");
}

struct CompletionCase {
  std::string name;
  std::vector<std::string> words;
  std::vector<std::string> expected;
};

void PrintTo(const CompletionCase& completion, std::ostream* os) {
  *os << completion.name;
}

class PartialWord : public ::testing::TestWithParam<CompletionCase> {};

TEST_P(PartialWord, OffersExactlyTheMatchingCandidates) {
  EXPECT_THAT(candidates(GetParam().words), UnorderedElementsAreArray(GetParam().expected));
}

INSTANTIATE_TEST_SUITE_P(
    Docs, PartialWord,
    ::testing::Values(
        CompletionCase{"CommandPrefix", {"numabalancerctl", "st"}, {"status"}},
        CompletionCase{
            "SharedPrefix", {"numabalancerctl", "re"}, {"reconcile", "reload", "resume"}},
        CompletionCase{"GlobalOption", {"numabalancerctl", "--so"}, {"--socket"}},
        CompletionCase{"CommandAfterSocketPath",
                       {"numabalancerctl", "--socket", "/run/x.sock", "pa"},
                       {"pause"}},
        CompletionCase{"CommandAfterShortSocketOption",
                       {"numabalancerctl", "-s", "/run/x.sock", "cont"},
                       {"containers"}},
        CompletionCase{"PlanOption", {"numabalancerctl", "plan", "--ex"}, {"--explain"}},
        CompletionCase{"MigrateOptions",
                       {"numabalancerctl", "migrate", "--cgroup", "a.slice", "--d"},
                       {"--dry-run"}},
        CompletionCase{"DryRunHasOneSpelling", {"numabalancerctl", "d"}, {"dry_run"}},
        CompletionCase{"DryRunState", {"numabalancerctl", "dry_run", ""}, {"on", "off"}},
        CompletionCase{"DryRunAlias", {"numabalancerctl", "dry-run", "of"}, {"off"}},
        CompletionCase{"TopOptions",
                       {"numabalancerctl", "top", "--"},
                       {"--interval", "--containers", "--help", "--json", "--socket", "--timeout"}},
        CompletionCase{
            "HistoryOptions", {"numabalancerctl", "history", "--s"}, {"--since", "--socket"}},
        CompletionCase{"NumberIsLeftToTheUser", {"numabalancerctl", "history", "-n", ""}, {}},
        CompletionCase{"UnknownPrefix", {"numabalancerctl", "zz"}, {}}),
    [](const ::testing::TestParamInfo<CompletionCase>& info) { return info.param.name; });

TEST(BashCompletion, SocketOptionCompletesFilePaths) {
  TempTree tree;
  tree.make_file("admin.sock", "");
  tree.make_file("other", "");
  std::string prefix = (tree.root() / "adm").string();
  std::string expected = (tree.root() / "admin.sock").string();
  EXPECT_THAT(candidates({"numabalancerctl", "--socket", prefix}),
              UnorderedElementsAreArray({expected}));
  // bash splits --socket=PATH at the "=" into three words.
  EXPECT_THAT(candidates({"numabalancerctl", "--socket", "=", prefix}),
              UnorderedElementsAreArray({expected}));
}

// A host's cgroup directories in a temp tree, and a mount table that mounts them there.
class CgroupCompletion : public ::testing::Test {
 protected:
  CgroupCompletion() {
    for (const char* dir : {"memory/a.slice/pod1", "memory/b.slice", "unified/init.scope",
                            "unified/user.slice", "systemd/user.slice", "pids/user.slice"}) {
      tree.make_dir(dir);
    }
  }

  std::vector<std::string> complete(const std::string& mounts, const std::string& word) {
    auto table = tree.make_file("mounts", mounts);
    return candidates({"numabalancerctl", "migrate", "--cgroup", word},
                      "_numabalancerctl_mounts=" + shell_quote(table.string()));
  }
  std::string mount(const std::string& fstype, const std::string& dir,
                    const std::string& options) const {
    return fstype + " " + tree.path(dir).string() + " " + fstype + " " + options + " 0 0\n";
  }

  TempTree tree;
};

TEST_F(CgroupCompletion, HybridHostCompletesUnderTheMemoryController) {
  std::string hybrid = "tmpfs " + tree.root().string() + " tmpfs ro,mode=755 0 0\n" +
                       mount("cgroup2", "unified", "rw,nsdelegate") +
                       mount("cgroup", "systemd", "rw,xattr,name=systemd") +
                       mount("cgroup", "pids", "rw,pids") +
                       mount("cgroup", "memory", "rw,nosuid,nodev,noexec,relatime,memory");
  EXPECT_THAT(complete(hybrid, ""), UnorderedElementsAreArray({"a.slice/", "b.slice/"}));
  EXPECT_THAT(complete(hybrid, "a.slice/"), UnorderedElementsAreArray({"a.slice/pod1/"}));
}

TEST_F(CgroupCompletion, PureV1HostCompletesUnderTheMemoryController) {
  std::string v1 = mount("cgroup", "pids", "rw,pids") + mount("cgroup", "memory", "rw,memory");
  EXPECT_THAT(complete(v1, "b"), UnorderedElementsAreArray({"b.slice/"}));
}

TEST_F(CgroupCompletion, PureV2HostCompletesUnderTheUnifiedMount) {
  std::string v2 = mount("cgroup2", "unified", "rw,nosuid,nodev,noexec,relatime");
  EXPECT_THAT(complete(v2, ""), UnorderedElementsAreArray({"init.scope/", "user.slice/"}));
}

TEST_F(CgroupCompletion, MountPointWithASpaceIsDecoded) {
  tree.make_dir("cgroup v2/system.slice");
  std::string v2 = "cgroup2 " + tree.path("cgroup\\040v2").string() + " cgroup2 rw,nosuid 0 0\n";
  EXPECT_THAT(complete(v2, ""), UnorderedElementsAreArray({"system.slice/"}));
}

// Each subcommand in the one spelling --help lists first; an alias still works when typed, but
// offering it too would make `d<TAB>` ask which of two names for one command.
TEST(BashCompletion, OffersEverySubcommandTheBinaryHasInOneSpelling) {
  CliHelp help = ctl_help();
  ASSERT_FALSE(help.subcommands.empty()) << "numabalancerctl --help lists no subcommands";
  std::vector<std::string> names = help.subcommands;
  std::erase_if(names, [&](const std::string& name) {
    return std::find(help.aliases.begin(), help.aliases.end(), name) != help.aliases.end();
  });
  EXPECT_THAT(candidates({"numabalancerctl", ""}), UnorderedElementsAreArray(names));
}

TEST(BashCompletion, OffersEveryOptionOfEverySubcommand) {
  CliHelp top = ctl_help();
  ASSERT_FALSE(top.subcommands.empty());
  for (const std::string& subcommand : top.subcommands) {
    std::vector<std::string> options = ctl_help(subcommand).long_options;
    EXPECT_THAT(candidates({"numabalancerctl", subcommand, "--"}), IsSupersetOf(options))
        << "after numabalancerctl " << subcommand;
  }
}

TEST(BashCompletion, OffersEveryGlobalOption) {
  EXPECT_THAT(candidates({"numabalancerctl", "--"}), IsSupersetOf(ctl_help().long_options));
}

}  // namespace
}  // namespace nb::testing
