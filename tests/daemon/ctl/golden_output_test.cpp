// Every command's human output against a golden file: tests/data/ctl/NAME.json holds the reply
// (or events, or the replies `top` draws from) and NAME.txt what numabalancerctl prints for it.
// NB_UPDATE_GOLDEN=1 rewrites the .txt files; review the diff. Beyond each file, the outputs
// must agree with each other: one time format, one node table, one set of history columns.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "daemon/ctl/commands.hpp"
#include "daemon/ctl/human_output.hpp"
#include "daemon/ctl/top_view.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::ctl {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

const fs::path kGoldenDir = fs::path(NB_SOURCE_DIR) / "tests/data/ctl";

// What numabalancerctl prints for one case.
std::string render(const json& golden) {
  const std::string command = golden.at("command");
  if (command == "watch") {
    std::string out;
    for (const auto& event : golden.at("events")) {
      out += format_event(event.at("event"), event.at("time"), event.at("data")) + "\n";
    }
    return out;
  }
  if (command == "top") {
    return render_top(golden.at("status"), golden.at("topology"), golden.at("containers"),
                      golden.at("plan"));
  }
  if (command == "migrate") {
    return job_done_text(golden.at("job"), golden.at("done"));
  }
  return format_result(command, golden.at("result"));
}

std::map<std::string, std::string> rendered_cases() {
  std::map<std::string, std::string> outputs;
  for (const auto& entry : fs::directory_iterator(kGoldenDir)) {
    if (entry.path().extension() == ".json") {
      auto golden = json::parse(nb::testing::read_file(entry.path()));
      outputs[entry.path().stem().string()] = render(golden);
    }
  }
  return outputs;
}

TEST(GoldenOutput, EveryCaseMatchesItsFile) {
  const bool update = std::getenv("NB_UPDATE_GOLDEN") != nullptr;
  auto outputs = rendered_cases();
  ASSERT_FALSE(outputs.empty()) << kGoldenDir;
  for (const auto& [name, out] : outputs) {
    const fs::path expected = kGoldenDir / (name + ".txt");
    if (update) {
      std::ofstream(expected) << out;
      continue;
    }
    ASSERT_TRUE(fs::exists(expected)) << expected << " is missing; NB_UPDATE_GOLDEN=1 writes it";
    EXPECT_EQ(out, nb::testing::read_file(expected)) << name;
  }
}

TEST(GoldenOutput, EveryCommandWithAViewHasACase) {
  auto outputs = rendered_cases();
  for (const Command& command : commands()) {
    if (command.human == nullptr && command.name != "watch" && command.name != "top" &&
        command.name != "migrate") {
      continue;
    }
    EXPECT_TRUE(outputs.count(std::string(command.name)) == 1) << command.name;
  }
}

// One time format: RFC 3339 in UTC to the millisecond, and once per `watch` line.
TEST(GoldenOutput, TimesAreUtcToTheMillisecondEverywhere) {
  const std::regex time(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d))");
  for (const auto& [name, out] : rendered_cases()) {
    for (auto it = std::sregex_iterator(out.begin(), out.end(), time); it != std::sregex_iterator();
         ++it) {
      const std::string found = it->str();
      EXPECT_TRUE(std::regex_match(found, std::regex(R"(.*T\d\d:\d\d:\d\d\.\d{3}Z)")))
          << name << ": " << found;
    }
  }
  std::istringstream watch(rendered_cases().at("watch"));
  for (std::string line; std::getline(watch, line);) {
    auto count =
        std::distance(std::sregex_iterator(line.begin(), line.end(), time), std::sregex_iterator());
    EXPECT_EQ(count, 1) << line;
  }
}

std::string first_line_with(const std::string& text, const std::string& start) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(start, 0) == 0) {
      return line;
    }
  }
  return "";
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  return {std::istream_iterator<std::string>(in), {}};
}

TEST(GoldenOutput, TopAndTopologyShareTheNodeColumns) {
  auto outputs = rendered_cases();
  auto top = words(first_line_with(outputs.at("top"), "NODE"));
  auto topology = words(first_line_with(outputs.at("topology"), "NODE"));
  ASSERT_FALSE(top.empty());
  ASSERT_GE(topology.size(), top.size());
  EXPECT_EQ(top, std::vector<std::string>(topology.begin(),
                                          topology.begin() + static_cast<long>(top.size())));
}

TEST(GoldenOutput, HistoryHasTheSameColumnsWithAndWithoutSince) {
  auto outputs = rendered_cases();
  auto kept = first_line_with(outputs.at("history"), "TIME");
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(words(kept), words(first_line_with(outputs.at("history_since"), "TIME")));
}

TEST(GoldenOutput, NoPressureIsClaimedWithoutMetrics) {
  auto outputs = rendered_cases();
  for (const char* name : {"top_no_metrics", "plan_no_metrics"}) {
    EXPECT_THAT(outputs.at(name), Not(HasSubstr("pressure none"))) << name;
    EXPECT_THAT(outputs.at(name), HasSubstr("pressure unknown")) << name;
  }
}

TEST(GoldenOutput, EmptyTablesSayWhy) {
  auto outputs = rendered_cases();
  EXPECT_THAT(outputs.at("containers_empty"),
              HasSubstr("no cgroup matched the pools; see `[[pool]] cgroups`"));
  EXPECT_THAT(outputs.at("top_no_metrics"), HasSubstr("no cgroup matched the pools"));
  EXPECT_THAT(outputs.at("history_empty"), HasSubstr("no rounds kept yet"));
}

TEST(GoldenOutput, ReconcileSaysItsResultOnce) {
  const std::string out = rendered_cases().at("reconcile");
  const std::string reason = "node 1 under force pressure";
  auto first = out.find(reason);
  ASSERT_NE(first, std::string::npos) << out;
  EXPECT_EQ(out.find(reason, first + 1), std::string::npos) << out;
}

}  // namespace
}  // namespace nb::ctl
