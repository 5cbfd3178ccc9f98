// The man pages are checked against the real tools: groff formats each without a warning, and
// every subcommand and option the binaries' --help lists, and every section and key of
// config.toml.example, is documented.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include "tests/docs/cli_help.hpp"
#include "tests/docs/command_output.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::testing {
namespace {

const std::filesystem::path kManDir = std::filesystem::path(NB_SOURCE_DIR) / "docs" / "man";

std::string binary(std::string_view name) {
  return shell_quote((std::filesystem::path(NB_BINARY_DIR) / name).string());
}

// The page as roff source, with its .SH sections split out.
class ManPage {
 public:
  explicit ManPage(const std::string& file) : text_(read_file(kManDir / file)) {
    std::string section;
    for (const std::string& line : split_lines(text_)) {
      if (line.rfind(".SH ", 0) == 0) {
        section = unquote(line.substr(4));
        sections_[section];
      } else {
        sections_[section].push_back(line);
      }
    }
  }

  const std::string& text() const { return text_; }
  bool has_section(const std::string& title) const { return sections_.count(title) > 0; }

  // Options are written as \-\-name (an escaped hyphen, as groff wants for a literal minus).
  bool mentions_option(const std::string& long_option) const {
    std::string escaped;
    for (char c : long_option) {
      escaped += c == '-' ? std::string(R"(\-)") : std::string(1, c);
    }
    std::size_t at = 0;
    while ((at = text_.find(escaped, at)) != std::string::npos) {
      std::size_t end = at + escaped.size();
      bool whole_word =
          end == text_.size() || !(std::isalnum(static_cast<unsigned char>(text_[end])) ||
                                   text_[end] == '\\' || text_[end] == '_');
      if (whole_word) {
        return true;
      }
      at = end;
    }
    return false;
  }

  // A term is introduced by a bold or sub-heading line whose first word is the term:
  // `.B status`, `.BR interval " (duration ...`, `.SS "plan \-\-snapshot ..."`.
  bool introduces(const std::string& term, const std::string& section = "") const {
    static const std::regex kTermLine(R"re(^\.(?:B|BR|BI|SS)\s+"?([A-Za-z0-9_.\\-]+))re");
    for (const auto& [title, lines] : sections_) {
      if (!section.empty() && title != section) {
        continue;
      }
      for (const std::string& line : lines) {
        std::smatch match;
        if (std::regex_search(line, match, kTermLine) && unescape(match[1]) == term) {
          return true;
        }
      }
    }
    return false;
  }

 private:
  static std::string unescape(std::string text) {
    for (std::size_t at = 0; (at = text.find(R"(\-)", at)) != std::string::npos; ++at) {
      text.erase(at, 1);
    }
    return text;
  }
  static std::string unquote(std::string text) {
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
      return text.substr(1, text.size() - 2);
    }
    return text;
  }

  std::string text_;
  std::map<std::string, std::vector<std::string>> sections_;
};

struct PageCase {
  std::string file;
  std::string title;  // as on the .TH line
  std::string section;
};

void PrintTo(const PageCase& page, std::ostream* os) {
  *os << page.file;
}

class EveryManPage : public ::testing::TestWithParam<PageCase> {};

TEST_P(EveryManPage, GroffFormatsItWithoutWarnings) {
  std::filesystem::path page = kManDir / GetParam().file;
  ASSERT_TRUE(std::filesystem::exists(page)) << page;
  ASSERT_EQ(run_command("command -v groff >/dev/null").exit_code, 0)
      << "groff is missing: scripts/setup.sh --tests installs groff-base";
  CommandOutput groff = run_command("groff -ww -z -man " + shell_quote(page.string()));
  EXPECT_EQ(groff.exit_code, 0);
  EXPECT_EQ(groff.output, "") << "groff -ww -z -man " << page;
}

// In a macro line (.B, .BR, ...) a quote opens a quoted argument only at an argument's start, and
// the quote that closes it ends the argument: `.B {"time", "nodes": ...` loses the quotes around
// nodes and splits `nodes` from its colon. So a quoted argument must be followed by a space or
// the end of the line; a quote inside a word is written \(dq.
std::vector<std::string> quoted_arguments_cut_short(const std::string& text) {
  static const std::regex kMacroLine(R"(^\.(B|I|BR|RB|BI|IB|IR|RI|SM|SB|TP|IP|SS|SH)\s)");
  std::vector<std::string> bad;
  for (const std::string& line : split_lines(text)) {
    std::smatch match;
    if (!std::regex_search(line, match, kMacroLine)) {
      continue;
    }
    for (std::size_t at = static_cast<std::size_t>(match.length(0)); at < line.size(); ++at) {
      if (line[at] == ' ') {
        continue;
      }
      if (line[at] != '"') {
        at = std::min(line.find(' ', at), line.size());
        continue;
      }
      for (++at; at < line.size(); ++at) {  // "" inside a quoted argument is one quote
        if (line[at] == '"' && (at + 1 == line.size() || line[at + 1] != '"')) {
          break;
        }
        at += line[at] == '"' ? 1 : 0;
      }
      if (at + 1 < line.size() && line[at + 1] != ' ') {
        bad.push_back(line);
        break;
      }
    }
  }
  return bad;
}

TEST_P(EveryManPage, QuotedMacroArgumentsEndAtASpace) {
  ManPage page(GetParam().file);
  for (const std::string& line : quoted_arguments_cut_short(page.text())) {
    ADD_FAILURE() << GetParam().file << ": groff drops the quotes of: " << line;
  }
}

TEST(ManPages, QuoteCheckCatchesAJsonObjectInABoldLine) {
  EXPECT_EQ(quoted_arguments_cut_short(".B {\"time\", \"nodes\": []}\n").size(), 1u);
  EXPECT_TRUE(quoted_arguments_cut_short(".BR max_age \" (duration; default \" \"\"\"30s\"\")\"\n"
                                         ".B {\\(dqtime\\(dq, \\(dqnodes\\(dq: []}\n")
                  .empty());
}

// The page as man shows it, in plain text on one line: hyphenation and line breaks undone.
std::string rendered_text(const std::string& file) {
  CommandOutput out =
      run_command("groff -man -Tutf8 -P-cbou " + shell_quote((kManDir / file).string()));
  EXPECT_EQ(out.exit_code, 0) << out.output;
  std::string text = std::regex_replace(out.output, std::regex("\u2010\n\\s*"), "");
  return std::regex_replace(text, std::regex("\\s+"), " ");
}

TEST(ConfigManPage, RenderedFileProviderFormatKeepsTheJsonQuotes) {
  EXPECT_NE(rendered_text("numabalancer.toml.5")
                .find(R"({"time", "nodes": [{"id", "read_latency_ns", "bandwidth_gbps"}]})"),
            std::string::npos);
}

TEST_P(EveryManPage, TitleLineNamesThePageAndItsSection) {
  ManPage page(GetParam().file);
  std::string expected = ".TH " + GetParam().title + " " + GetParam().section + " ";
  EXPECT_EQ(page.text().rfind(expected, 0), 0u) << "the page must start with " << expected;
}

TEST_P(EveryManPage, HasTheStandardSections) {
  ManPage page(GetParam().file);
  for (const char* title : {"NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"}) {
    EXPECT_TRUE(page.has_section(title)) << GetParam().file << " has no " << title;
  }
}

INSTANTIATE_TEST_SUITE_P(Docs, EveryManPage,
                         ::testing::Values(PageCase{"numabalancerd.8", "NUMABALANCERD", "8"},
                                           PageCase{"numabalancerctl.8", "NUMABALANCERCTL", "8"},
                                           PageCase{"numabalancer.toml.5", "NUMABALANCER.TOML",
                                                    "5"}),
                         [](const ::testing::TestParamInfo<PageCase>& info) {
                           std::string name = info.param.file;
                           std::replace(name.begin(), name.end(), '.', '_');
                           return name;
                         });

struct BinaryCase {
  std::string binary;
  std::string page;
};

void PrintTo(const BinaryCase& binary, std::ostream* os) {
  *os << binary.binary;
}

class EveryBinary : public ::testing::TestWithParam<BinaryCase> {
 protected:
  CliHelp help(const std::string& subcommand = "") const {
    std::string command = binary(GetParam().binary);
    if (!subcommand.empty()) {
      command += " " + subcommand;
    }
    CommandOutput out = run_command(command + " --help");
    EXPECT_EQ(out.exit_code, 0) << command << " --help:\n" << out.output;
    return parse_cli_help(out.output);
  }
};

TEST_P(EveryBinary, PageDocumentsEveryTopLevelSubcommand) {
  ManPage page(GetParam().page);
  CliHelp top = help();
  ASSERT_FALSE(top.subcommands.empty()) << GetParam().binary << " --help lists no subcommands";
  for (const std::string& subcommand : top.subcommands) {
    EXPECT_TRUE(page.introduces(subcommand, "COMMANDS"))
        << GetParam().page << " has no entry for the subcommand " << subcommand;
  }
}

TEST_P(EveryBinary, PageMentionsEveryOptionOfEveryCommand) {
  ManPage page(GetParam().page);
  CliHelp top = help();
  ASSERT_FALSE(top.long_options.empty()) << GetParam().binary << " --help lists no options";
  std::vector<std::pair<std::string, std::string>> options;  // (command, option)
  for (const std::string& option : top.long_options) {
    options.emplace_back("", option);
  }
  for (const std::string& subcommand : top.subcommands) {
    for (const std::string& option : help(subcommand).long_options) {
      options.emplace_back(subcommand, option);
    }
  }
  for (const auto& [command, option] : options) {
    EXPECT_TRUE(page.mentions_option(option))
        << GetParam().page << " does not mention " << option
        << (command.empty() ? std::string() : " of " + command);
  }
}

INSTANTIATE_TEST_SUITE_P(Docs, EveryBinary,
                         ::testing::Values(BinaryCase{"numabalancerd", "numabalancerd.8"},
                                           BinaryCase{"numabalancerctl", "numabalancerctl.8"}),
                         [](const ::testing::TestParamInfo<BinaryCase>& info) {
                           return info.param.binary;
                         });

// Every [section] and key of the example config, which lists every key the loader reads
// (commented-out ones are those without a default value).
std::map<std::string, std::vector<std::string>> example_config_keys() {
  static const std::regex kSection(R"(^(\[\[?[a-z_.]+\]\]?)\s*$)");
  static const std::regex kKey(R"(^#?\s*([a-z_]+) = )");
  std::map<std::string, std::vector<std::string>> keys;
  std::string section;
  for (const std::string& line :
       split_lines(read_file(std::filesystem::path(NB_SOURCE_DIR) / "config.toml.example"))) {
    std::smatch match;
    if (std::regex_match(line, match, kSection)) {
      section = match[1];
      keys[section];
    } else if (!section.empty() && std::regex_search(line, match, kKey)) {
      keys[section].push_back(match[1]);
    }
  }
  return keys;
}

TEST(ConfigManPage, HasASectionForEveryTableOfTheExampleConfig) {
  ManPage page("numabalancer.toml.5");
  auto keys = example_config_keys();
  ASSERT_GE(keys.size(), 5u) << "config.toml.example has lost its sections";
  for (const auto& [section, section_keys] : keys) {
    EXPECT_TRUE(page.has_section(section)) << "numabalancer.toml(5) has no section " << section;
  }
}

TEST(ConfigManPage, DocumentsEveryKeyInItsOwnSection) {
  ManPage page("numabalancer.toml.5");
  for (const auto& [section, section_keys] : example_config_keys()) {
    for (const std::string& key : section_keys) {
      EXPECT_TRUE(page.introduces(key, section))
          << "numabalancer.toml(5) does not document " << key << " under " << section;
    }
  }
}

TEST(ConfigManPage, TermCheckRejectsAKeyUnderTheWrongSection) {
  // The check above must tell sections apart, or a key documented elsewhere would pass.
  ManPage page("numabalancer.toml.5");
  EXPECT_TRUE(page.introduces("interval", "[daemon]"));
  EXPECT_FALSE(page.introduces("interval", "[admin]"));
  EXPECT_FALSE(page.introduces("no_such_key", "[daemon]"));
}

// What a manual migrate may reach and what an eviction command gets are promises to operators.
TEST(ManPages, SayTheMigrateConfinementAndTheExecEnvironment) {
  for (const char* file : {"numabalancerd.8", "numabalancerctl.8"}) {
    ManPage page(file);
    const std::string& text = page.text();
    for (const char* phrase : {"only root may move it", "symbolic link", "memory cgroup root"}) {
      EXPECT_NE(text.find(phrase), std::string::npos) << file << " does not say " << phrase;
    }
  }
  ManPage config_page("numabalancer.toml.5");
  const std::string& config = config_page.text();
  for (const char* phrase : {"NOTIFY_SOCKET", "process group", "<hidden: admin only>",
                             "no descriptor", "cut off again"}) {
    EXPECT_NE(config.find(phrase), std::string::npos)
        << "numabalancer.toml(5) does not say " << phrase;
  }
}

}  // namespace
}  // namespace nb::testing
