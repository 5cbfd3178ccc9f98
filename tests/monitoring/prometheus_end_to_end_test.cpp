// monitoring/ against a real Prometheus: the server scrapes node_exporter's textfile collector,
// which serves the textfile a real numabalancerd writes, and evaluates rules.yml and alerts.yml
// (their `for:` durations and the recording group's interval shortened to seconds). Every
// dashboard panel's query returns a series; then the daemon's metrics file turns malformed and
// NumabalancerProviderDown goes pending, then firing. Every process stops on every exit path
// (ChildProcess kills what it started). Skips without prometheus or node_exporter.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "tests/daemon/service/prometheus_tools.hpp"
#include "tests/daemon/service/running_daemon.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using nlohmann::json;

const fs::path kMonitoring = fs::path(NB_SOURCE_DIR) / "monitoring";

std::string url_encoded(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      out += escaped;
    }
  }
  return out;
}

void write_readings(const TempTree& tree, const std::string& text) {
  tree.make_file("metrics.json.tmp", text);
  fs::rename(tree.path("metrics.json.tmp"), tree.path("metrics.json"));
}

std::string good_readings() {
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  return "{\"time\": " + std::to_string(now) +
         ", \"nodes\": [{\"id\": 0, \"read_latency_ns\": 95.5, \"bandwidth_gbps\": 12.5}]}";
}

std::string daemon_config(const TempTree& tree) {
  return "[daemon]\ninterval = \"500ms\"\nstate_dir = \"" + tree.path("state").string() +
         "\"\nlock_file = \"" + tree.path("run/numabalancerd.lock").string() +
         "\"\n\n[admin]\nsocket = \"" + tree.path("run/admin.sock").string() +
         "\"\nadmin_group = \"\"\n\n[metrics]\nlatency = \"file\"\nbandwidth = \"file\"\n\n"
         "[metrics.file]\npath = \"" +
         tree.path("metrics.json").string() +
         "\"\nmax_age = \"1h\"\n\n[metrics.baseline]\nread_latency_ns = { \"0\" = 90.0 }\n\n"
         "[[pool]]\nname = \"share\"\ncgroups = [\"nb-e2e-absent/*\"]\n\n[export]\ntextfile = \"" +
         tree.path("textfile/numabalancer.prom").string() + "\"\n";
}

// The rule files as the server loads them here: seconds instead of minutes and hours.
void write_fast_rules(const TempTree& tree) {
  std::string rules = read_file(kMonitoring / "rules.yml");
  rules = std::regex_replace(rules, std::regex("interval: 30s"), "interval: 1s");
  tree.make_file("rules.yml", rules);
  std::string alerts = read_file(kMonitoring / "alerts.yml");
  alerts = std::regex_replace(alerts, std::regex(R"(for: \d+[smh])"), "for: 3s");
  tree.make_file("alerts.yml", alerts);
}

class Prometheus {
 public:
  Prometheus(const fs::path& program, const TempTree& tree, int exporter_port)
      : port_(free_local_port()),
        config_(tree.make_file(
            "prometheus.yml",
            "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - " +
                tree.path("rules.yml").string() + "\n  - " + tree.path("alerts.yml").string() +
                "\nscrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: "
                "['127.0.0.1:" +
                std::to_string(exporter_port) + "']\n")),
        process_({program.string(), "--config.file=" + config_.string(),
                  "--storage.tsdb.path=" + tree.make_dir("tsdb").string(),
                  "--web.listen-address=127.0.0.1:" + std::to_string(port_), "--log.level=warn"},
                 tree.root()) {}

  bool ready(std::chrono::seconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline && !process_.wait({}).has_value()) {
      if (http_get(port_, "/-/ready", 2s)) {
        return true;
      }
      std::this_thread::sleep_for(100ms);
    }
    return false;
  }
  // The result vector of an instant query; nullopt when the server refuses it (a PromQL error)
  // or does not answer.
  std::optional<json> query(const std::string& expression) {
    auto body = http_get(port_, "/api/v1/query?query=" + url_encoded(expression), 5s);
    if (!body) {
      return std::nullopt;
    }
    json reply = json::parse(*body, nullptr, false);
    if (reply.is_discarded() || reply.value("status", "") != "success") {
      return std::nullopt;
    }
    return reply["data"]["result"];
  }
  // The state of an alert now: "pending", "firing", or "" when it is not active.
  std::string alert_state(const std::string& name) {
    auto body = http_get(port_, "/api/v1/alerts", 5s);
    json reply = body ? json::parse(*body, nullptr, false) : json();
    if (!reply.is_object()) {
      return "";
    }
    for (const auto& alert : reply["data"]["alerts"]) {
      if (alert["labels"].value("alertname", "") == name) {
        return alert.value("state", "");
      }
    }
    return "";
  }
  std::string log() const { return process_.err(); }

 private:
  int port_;
  fs::path config_;
  ChildProcess process_;
};

// Each panel's queries with the dashboard's variables given values: every host, a rate window
// that holds a few 1 s scrapes. A panel may draw a line only in one threshold mode (absolute
// thresholds, or the baseline times the ratios), so a panel shows data when any query does.
std::vector<std::pair<std::string, std::vector<std::string>>> panel_queries() {
  const auto dashboard = json::parse(read_file(kMonitoring / "dashboards/numabalancer.json"));
  std::vector<std::pair<std::string, std::vector<std::string>>> panels;
  for (const auto& panel : dashboard["panels"]) {
    std::vector<std::string> queries;
    for (const auto& target : panel.value("targets", json::array())) {
      std::string expression = target["expr"];
      expression = std::regex_replace(expression, std::regex(R"(\$host)"), ".*");
      expression = std::regex_replace(expression, std::regex(R"(\$__rate_interval)"), "10s");
      queries.push_back(expression);
    }
    if (!queries.empty()) {
      panels.emplace_back(panel["title"], queries);
    }
  }
  return panels;
}

TEST(PrometheusEndToEnd, PanelsShowDataAndTheProviderAlertFires) {
  const auto prometheus_program = find_program("prometheus");
  const auto exporter_program = find_program("prometheus-node-exporter");
  if (!prometheus_program || !exporter_program) {
    GTEST_SKIP() << "prometheus or prometheus-node-exporter is not installed "
                    "(scripts/setup.sh --tests installs both)";
  }
  const auto started = std::chrono::steady_clock::now();
  TempTree tree;
  tree.make_dir("textfile");
  tree.make_dir("run");
  write_readings(tree, good_readings());
  const fs::path config = tree.make_file("config.toml", daemon_config(tree));
  ChildProcess daemon({binary("numabalancerd"), "--config", config.string()}, tree.root());
  ASSERT_TRUE(wait_for_socket(tree.path("run/admin.sock").string())) << daemon.err();
  TextfileExporter exporter(*exporter_program, tree.path("textfile"), tree.root());
  ASSERT_TRUE(exporter.scrape().has_value()) << exporter.log();
  write_fast_rules(tree);
  Prometheus prometheus(*prometheus_program, tree, exporter.port());
  ASSERT_TRUE(prometheus.ready(60s)) << prometheus.log();

  // Every panel shows a series once a few scrapes and rule evaluations are in.
  std::vector<std::string> empty;
  std::vector<std::string> refused;
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  do {
    std::this_thread::sleep_for(1s);
    empty.clear();
    refused.clear();
    for (const auto& [title, queries] : panel_queries()) {
      bool shows = false;
      for (const std::string& query : queries) {
        const auto result = prometheus.query(query);
        if (!result) {
          refused.push_back(title + ": " + query);
        }
        shows = shows || (result && !result->empty());
      }
      if (!shows) {
        empty.push_back(title + ": " + queries.front());
      }
    }
  } while (!empty.empty() && std::chrono::steady_clock::now() < deadline);
  EXPECT_THAT(refused, ::testing::IsEmpty()) << prometheus.log();
  EXPECT_THAT(empty, ::testing::IsEmpty()) << prometheus.log();
  EXPECT_EQ(prometheus.alert_state("NumabalancerProviderDown"), "");

  // The provider's file turns malformed: pending, then firing.
  write_readings(tree, "{ not json");
  bool pending = false;
  std::string state;
  const auto alert_deadline = std::chrono::steady_clock::now() + 60s;
  while (state != "firing" && std::chrono::steady_clock::now() < alert_deadline) {
    std::this_thread::sleep_for(200ms);
    state = prometheus.alert_state("NumabalancerProviderDown");
    pending = pending || state == "pending";
  }
  EXPECT_TRUE(pending) << "the alert was never seen pending";
  EXPECT_EQ(state, "firing") << prometheus.log();
  const auto took =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started);
  RecordProperty("seconds", static_cast<int>(took.count()));
  std::cout << "end to end took " << took.count() << " s\n";
}

}  // namespace
}  // namespace nb::testing
