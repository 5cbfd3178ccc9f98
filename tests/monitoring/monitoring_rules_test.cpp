// monitoring/ held to the daemon and to Prometheus's own tools: promtool checks the rule files
// and runs their unit tests, every metric and label the rules and the dashboard name is one the
// exporter writes (so a renamed metric fails here), and every alert's runbook section exists.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/daemon/service/prometheus_tools.hpp"
#include "tests/monitoring/exported_names.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kMonitoring = fs::path(NB_SOURCE_DIR) / "monitoring";

// Labels Prometheus adds at scrape time, and histograms' bucket label.
const std::set<std::string> kScrapeLabels = {"instance", "job", "le"};

struct Ran {
  int exit_code = -1;
  std::string output;
};

Ran run_promtool(const std::vector<std::string>& arguments) {
  TempTree tree;
  std::vector<std::string> argv{"/bin/sh", "-c", "cd \"$0\" && exec promtool \"$@\"",
                                kMonitoring.string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  ChildProcess promtool(argv, tree.root());
  const int code = promtool.exit_code(std::chrono::seconds(60));
  return {code, promtool.out() + promtool.err()};
}

// Every PromQL expression of the rule files (`expr:` blocks) and of the dashboard.
std::vector<std::string> expressions() {
  std::vector<std::string> found;
  for (const char* file : {"rules.yml", "alerts.yml"}) {
    std::istringstream lines(read_file(kMonitoring / file));
    std::string current;
    int indent = -1;
    for (std::string line; std::getline(lines, line);) {
      const int leading = static_cast<int>(line.find_first_not_of(' '));
      if (indent >= 0 && (leading > indent || line.find_first_not_of(' ') == std::string::npos)) {
        current += " " + line;
        continue;
      }
      if (indent >= 0) {
        found.push_back(current);
        indent = -1;
      }
      const auto at = line.find("expr:");
      if (at != std::string::npos) {
        current = line.substr(at + 5);
        indent = leading;
      }
    }
    if (indent >= 0) {
      found.push_back(current);
    }
  }
  const auto dashboard =
      nlohmann::json::parse(read_file(kMonitoring / "dashboards/numabalancer.json"));
  for (const auto& panel : dashboard["panels"]) {
    for (const auto& target : panel.value("targets", nlohmann::json::array())) {
      found.push_back(target["expr"]);
    }
  }
  for (const auto& variable : dashboard["templating"]["list"]) {
    if (variable.contains("definition")) {
      found.push_back(variable["definition"]);
    }
  }
  return found;
}

TEST(MonitoringRules, PromtoolChecksBothRuleFiles) {
  if (!find_program("promtool")) {
    GTEST_SKIP() << "promtool is not installed (scripts/setup.sh --tests installs prometheus)";
  }
  const Ran check = run_promtool({"check", "rules", "rules.yml", "alerts.yml"});
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_THAT(check.output, ::testing::HasSubstr("SUCCESS: 11 rules found"));
}

TEST(MonitoringRules, EveryAlertFiresForOneHostAndNotForAnother) {
  if (!find_program("promtool")) {
    GTEST_SKIP() << "promtool is not installed (scripts/setup.sh --tests installs prometheus)";
  }
  const Ran test = run_promtool({"test", "rules", "tests/alerts_test.yml"});
  EXPECT_EQ(test.exit_code, 0) << test.output;
  // Every alert of alerts.yml has its test case.
  const std::string alerts = read_file(kMonitoring / "alerts.yml");
  const std::string cases = read_file(kMonitoring / "tests/alerts_test.yml");
  std::regex alert_line(R"(- alert: (\w+))");
  int count = 0;
  for (std::sregex_iterator it(alerts.begin(), alerts.end(), alert_line), end; it != end; ++it) {
    ++count;
    EXPECT_THAT(cases, ::testing::HasSubstr("alertname: " + (*it)[1].str())) << (*it)[1];
  }
  EXPECT_EQ(count, 11);
}

TEST(MonitoringRules, EveryAlertHasItsRunbookSection) {
  const std::string alerts = read_file(kMonitoring / "alerts.yml");
  const std::string readme = read_file(kMonitoring / "README.md");
  std::regex alert_line(R"(- alert: (\w+))");
  std::regex runbook_line(R"(runbook: README\.md#(\w+))");
  std::vector<std::string> names;
  std::vector<std::string> anchors;
  for (std::sregex_iterator it(alerts.begin(), alerts.end(), alert_line), end; it != end; ++it) {
    names.push_back((*it)[1]);
  }
  for (std::sregex_iterator it(alerts.begin(), alerts.end(), runbook_line), end; it != end; ++it) {
    anchors.push_back((*it)[1]);
  }
  ASSERT_EQ(names.size(), anchors.size()) << "an alert without a runbook annotation";
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string lower = names[i];
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    EXPECT_EQ(anchors[i], lower) << names[i] << "'s runbook points elsewhere";
    // GitHub's anchor of "### NumabalancerDown" is #numabalancerdown.
    EXPECT_THAT(readme, ::testing::HasSubstr("\n### " + names[i] + "\n")) << names[i];
  }
}

TEST(MonitoringRules, EveryMetricAndLabelNamedIsOneTheDaemonExports) {
  const ExportedNames exported = exported_names();
  std::set<std::string> every_label = kScrapeLabels;
  for (const auto& [name, labels] : exported) {
    every_label.insert(labels.begin(), labels.end());
  }
  every_label.insert("file");  // node_textfile_mtime_seconds's
  const std::regex metric(R"(([a-z_:]*numabalancer_[a-z_]+[a-z_:]*)(\{[^}]*\})?)");
  const std::regex label(R"((\w+)\s*(=~|!~|!=|=))");
  const std::regex grouping(R"((by|on|without|ignoring)\s*\(([^)]*)\))");
  int checked = 0;
  for (const std::string& expression : expressions()) {
    for (std::sregex_iterator it(expression.begin(), expression.end(), metric), end; it != end;
         ++it) {
      const std::string name = (*it)[1];
      if (name.find(':') != std::string::npos) {
        continue;  // a recording rule's name
      }
      ++checked;
      auto family = exported.find(name);
      ASSERT_NE(family, exported.end()) << name << " is not exported, in: " << expression;
      const std::string selector = (*it)[2];
      for (std::sregex_iterator l(selector.begin(), selector.end(), label), e; l != e; ++l) {
        const std::string used = (*l)[1];
        EXPECT_TRUE(kScrapeLabels.count(used) != 0 || family->second.count(used) != 0)
            << name << " has no label " << used << ", in: " << expression;
      }
    }
    for (std::sregex_iterator g(expression.begin(), expression.end(), grouping), e; g != e; ++g) {
      std::istringstream names((*g)[2].str());
      for (std::string used; std::getline(names, used, ',');) {
        used.erase(0, used.find_first_not_of(' '));
        used.erase(used.find_last_not_of(' ') + 1);
        if (!used.empty()) {
          EXPECT_TRUE(every_label.count(used) != 0)
              << "no exported metric has a label " << used << ", in: " << expression;
        }
      }
    }
  }
  EXPECT_GT(checked, 30);
}

}  // namespace
}  // namespace nb::testing
