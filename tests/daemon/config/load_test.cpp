// Reading TOML into Config: unknown keys, places, every problem at once, files.

#include "daemon/config/load.hpp"
#include "tests/daemon/config/registered_names.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/support/temp_tree.hpp"

namespace nb::config {
namespace {

using namespace std::chrono_literals;

std::string describe(const std::vector<ConfigProblem>& problems) {
  std::string all;
  for (const ConfigProblem& problem : problems) {
    all += "\n  " + problem.to_string();
  }
  return all;
}

struct UnknownKeyCase {
  std::string section;  // the header line, empty for the top level
  std::string key;      // the dotted key reported
};

// Without it gtest prints the struct's bytes, padding included (valgrind: uninitialised).
void PrintTo(const UnknownKeyCase& c, std::ostream* os) {
  *os << c.key;
}

class UnknownKey : public ::testing::TestWithParam<UnknownKeyCase> {};

TEST_P(UnknownKey, IsAnErrorInEverySection) {
  const UnknownKeyCase& param = GetParam();
  std::string toml = param.section.empty() ? "bogus = 1\n" : param.section + "\nbogus = 1\n";
  if (param.section == "[[pool]]") {
    toml += "name = \"a\"\ncgroups = [\"x\"]\n";
  }
  ConfigLoad load = load_config_string(toml, "unknown.toml", registered_names());
  ASSERT_EQ(load.problems.size(), 1u) << describe(load.problems);
  EXPECT_EQ(load.problems[0].key, param.key);
  EXPECT_EQ(load.problems[0].message, "unknown key");
  EXPECT_EQ(load.problems[0].line, param.section.empty() ? 1 : 2);
  EXPECT_EQ(load.problems[0].column, 1);
}

INSTANTIATE_TEST_SUITE_P(
    Sections, UnknownKey,
    ::testing::Values(UnknownKeyCase{"", "bogus"}, UnknownKeyCase{"[daemon]", "daemon.bogus"},
                      UnknownKeyCase{"[admin]", "admin.bogus"},
                      UnknownKeyCase{"[policy]", "policy.bogus"},
                      UnknownKeyCase{"[[pool]]", "pool[0].bogus"},
                      UnknownKeyCase{"[metrics]", "metrics.bogus"},
                      UnknownKeyCase{"[metrics.file]", "metrics.file.bogus"},
                      UnknownKeyCase{"[metrics.probe]", "metrics.probe.bogus"},
                      UnknownKeyCase{"[metrics.perf]", "metrics.perf.bogus"},
                      UnknownKeyCase{"[metrics.resctrl]", "metrics.resctrl.bogus"},
                      UnknownKeyCase{"[metrics.baseline]", "metrics.baseline.bogus"},
                      UnknownKeyCase{"[actuator]", "actuator.bogus"},
                      UnknownKeyCase{"[eviction]", "eviction.bogus"},
                      UnknownKeyCase{"[export]", "export.bogus"}));

TEST(UnknownKey, SuggestsTheKnownKeyATypoMeant) {
  ConfigLoad load = load_config_string("[deamon]\n[daemon]\nintervall = \"5s\"\n", "typo.toml",
                                       registered_names());
  ASSERT_EQ(load.problems.size(), 2u) << describe(load.problems);
  EXPECT_EQ(load.problems[0].to_string(),
            R"(deamon (line 1, column 1): unknown key (did you mean "daemon"?))");
  EXPECT_EQ(load.problems[1].to_string(),
            R"(daemon.intervall (line 3, column 1): unknown key (did you mean "interval"?))");
}

TEST(UnknownKey, UnknownSectionIsReported) {
  ConfigLoad load =
      load_config_string("[daemon]\n\n[extras]\nx = 1\n", "section.toml", registered_names());
  ASSERT_EQ(load.problems.size(), 1u) << describe(load.problems);
  EXPECT_EQ(load.problems[0].to_string(), "extras (line 3, column 1): unknown key");
}

TEST(UnknownKey, SecondPoolIsNamedByItsIndex) {
  ConfigLoad load = load_config_string(
      "[[pool]]\nname = \"a\"\ncgroups = [\"x\"]\n\n[[pool]]\nname = \"b\"\ncgroups = [\"y\"]\n"
      "node = [0]\n",
      "pools.toml", registered_names());
  ASSERT_EQ(load.problems.size(), 1u) << describe(load.problems);
  EXPECT_EQ(load.problems[0].to_string(),
            R"(pool[1].node (line 8, column 1): unknown key (did you mean "nodes"?))");
}

TEST(ConfigLoad, ReadsEveryKindOfValue) {
  ConfigLoad load = load_config_string(R"(
[daemon]
interval = "2s"
dry_run = true
log_level = "debug"
[admin]
socket_mode = "0600"
max_request_bytes = 2048
[policy]
force_read_latency_ns = 120
grace_gap_ratio = 0.25
supported_pools = ["share", "latency"]
round_max_bytes = "1TiB"
ping_pong_window = "1h"
threshold_mode = "relative"
grace_latency_ratio = 1.2
force_latency_ratio = 2
grace_latency_gap_ratio = 0
[[pool]]
name = "share"
cgroups = ["system.slice/*.service"]
nodes = [0, 2]
[[pool]]
name = "latency"
cgroups = ["latency.slice/**"]
nodes = "auto"
[metrics.baseline]
read_latency_ns = { "0" = 92.0, "1" = 141 }
quantile = 0.1
window = "6h"
min_samples = 5
[actuator]
rate_limit = 0
min_free_bytes = "2GiB"
[eviction]
action = "exec"
exec = ["/usr/sbin/evict", "--now"]
)",
                                       "kinds.toml", registered_names());
  ASSERT_TRUE(load.ok()) << describe(load.problems);
  const Config& config = load.config;
  EXPECT_EQ(config.daemon.interval, 2s);
  EXPECT_TRUE(config.daemon.dry_run);
  EXPECT_EQ(config.daemon.log_level, "debug");
  EXPECT_EQ(config.admin.socket_mode, 0600u);
  EXPECT_EQ(config.admin.max_request_bytes, 2048);
  EXPECT_EQ(config.policy.force_read_latency_ns, 120.0);
  EXPECT_EQ(config.policy.grace_gap_ratio, 0.25);
  EXPECT_EQ(config.policy.supported_pools, (std::vector<std::string>{"share", "latency"}));
  EXPECT_EQ(config.policy.round_max_bytes, 1024 * kGiB);
  EXPECT_EQ(config.policy.ping_pong_window, 1h);
  EXPECT_EQ(config.policy.threshold_mode, core::ThresholdMode::relative);
  EXPECT_EQ(config.policy.grace_latency_ratio, 1.2);
  EXPECT_EQ(config.policy.force_latency_ratio, 2.0);
  EXPECT_EQ(config.policy.grace_latency_gap_ratio, 0.0);
  ASSERT_EQ(config.pools.size(), 2u);
  EXPECT_EQ(config.pools[0].nodes, (std::vector<NodeId>{0, 2}));
  EXPECT_EQ(config.pools[1].nodes, std::nullopt);
  EXPECT_EQ(config.pools[1].cgroups, std::vector<std::string>{"latency.slice/**"});
  EXPECT_EQ(config.metrics.baseline.read_latency_ns,
            (std::map<NodeId, double>{{0, 92.0}, {1, 141.0}}));
  EXPECT_EQ(config.metrics.baseline.quantile, 0.1);
  EXPECT_EQ(config.metrics.baseline.window, 6h);
  EXPECT_EQ(config.metrics.baseline.min_samples, 5);
  EXPECT_EQ(config.actuator.rate_limit_mib_per_s, 0.0);
  EXPECT_EQ(config.actuator.min_free_bytes, 2 * kGiB);
  EXPECT_EQ(config.eviction.exec, (std::vector<std::string>{"/usr/sbin/evict", "--now"}));
}

TEST(ConfigLoad, ReportsEveryProblemAtOnceInFileOrder) {
  ConfigLoad load =
      load_config_file(NB_SOURCE_DIR "/tests/data/config/five_mistakes.toml", registered_names());
  ASSERT_EQ(load.problems.size(), 5u) << describe(load.problems);
  std::vector<std::string> lines;
  for (const ConfigProblem& problem : load.problems) {
    lines.push_back(problem.to_string());
  }
  EXPECT_EQ(
      lines,
      (std::vector<std::string>{
          R"(daemon.interval (line 3, column 1): must be a duration such as "500ms", "30s", "15m" or "1h", not an integer)",
          "daemon.log_level (line 4, column 1): must be one of trace, debug, info, warn, "
          "error, critical, off",
          "policy.grace_gap_ratio (line 7, column 1): must be in (0, 1]",
          "pool[0].cgroups (line 9, column 1): must list at least one cgroup glob",
          R"(export.textfil (line 14, column 1): unknown key (did you mean "textfile"?))",
      }));
}

TEST(ConfigLoad, AValueThatFailedToReadIsNotReportedAgainByValidation) {
  ConfigLoad load =
      load_config_string("[[pool]]\nname = 7\ncgroups = [3]\n", "twice.toml", registered_names());
  ASSERT_EQ(load.problems.size(), 2u) << describe(load.problems);
  EXPECT_EQ(load.problems[0].key, "pool[0].name");
  EXPECT_EQ(load.problems[0].message, "must be a string, not an integer");
  EXPECT_EQ(load.problems[1].key, "pool[0].cgroups[0]");
  EXPECT_EQ(load.problems[1].message, "must be a string, not an integer");
}

TEST(ConfigLoad, SyntaxErrorIsOneProblemWithItsPlace) {
  ConfigLoad load =
      load_config_string("[daemon]\ninterval = \"5s\n", "broken.toml", registered_names());
  ASSERT_EQ(load.problems.size(), 1u) << describe(load.problems);
  EXPECT_EQ(load.problems[0].key, "");
  EXPECT_EQ(load.problems[0].line, 2);
  EXPECT_FALSE(load.problems[0].message.empty());
  EXPECT_EQ(load.problems[0].to_string().rfind("line 2, column ", 0), 0u)
      << load.problems[0].to_string();
}

TEST(ConfigLoad, DuplicateKeyIsASyntaxError) {
  ConfigLoad load = load_config_string("[daemon]\ndry_run = true\ndry_run = false\n", "dup.toml",
                                       registered_names());
  ASSERT_EQ(load.problems.size(), 1u) << describe(load.problems);
  EXPECT_EQ(load.problems[0].line, 3);
}

TEST(ConfigLoad, MissingFileIsAProblem) {
  nb::testing::TempTree tree;
  ConfigLoad load = load_config_file(tree.path("absent.toml"), registered_names());
  ASSERT_EQ(load.problems.size(), 1u);
  EXPECT_EQ(load.problems[0].to_string(),
            "cannot read " + tree.path("absent.toml").string() + ": No such file or directory");
}

TEST(ConfigLoad, DirectoryIsAProblem) {
  nb::testing::TempTree tree;
  ConfigLoad load = load_config_file(tree.make_dir("config.toml"), registered_names());
  ASSERT_EQ(load.problems.size(), 1u);
  EXPECT_EQ(load.problems[0].to_string(),
            "cannot read " + tree.path("config.toml").string() + ": Is a directory");
}

TEST(ConfigLoad, ReadsAFile) {
  ConfigLoad load =
      load_config_file(NB_SOURCE_DIR "/tests/data/config/minimal_valid.toml", registered_names());
  ASSERT_TRUE(load.ok()) << describe(load.problems);
  EXPECT_EQ(load.config.daemon.interval, 5s);
  EXPECT_EQ(load.config.metrics.file.path, "/run/numabalancer/metrics.json");
  ASSERT_EQ(load.config.pools.size(), 1u);
  EXPECT_EQ(load.config.pools[0].nodes, (std::vector<NodeId>{0, 1}));
}

struct ToStringCase {
  ConfigProblem problem;
  std::string text;
};

class ProblemText : public ::testing::TestWithParam<ToStringCase> {};

TEST_P(ProblemText, NamesKeyAndPlaceWhenKnown) {
  EXPECT_EQ(GetParam().problem.to_string(), GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(
    Table, ProblemText,
    ::testing::Values(ToStringCase{{"policy.grace_gap_ratio", "must be in (0, 1]", 12, 1},
                                   "policy.grace_gap_ratio (line 12, column 1): must be in (0, 1]"},
                      ToStringCase{{"policy.grace_gap_ratio", "must be in (0, 1]", 0, 0},
                                   "policy.grace_gap_ratio: must be in (0, 1]"},
                      ToStringCase{{"", "expected '='", 3, 7}, "line 3, column 7: expected '='"},
                      ToStringCase{{"", "cannot read x", 0, 0}, "cannot read x"}));

}  // namespace
}  // namespace nb::config

namespace nb::config {
namespace {

TEST(ConfigLoad, ReadsPerfEventEncodingsForPmusThatDoNotListThem) {
  ConfigLoad load = load_config_string(R"([metrics.perf]
read_event = "event=0x0a,rdwrmask=0x1"
write_event = "event=0x0a,rdwrmask=0x2"
queue_occupancy_event = "event=0x80"
queue_inserts_event = "event=0x10"
clock_event = "event=0x00,umask=0x00"
)",
                                       "perf.toml", registered_names());
  ASSERT_TRUE(load.ok()) << load.problems.front().to_string();
  EXPECT_EQ(load.config.metrics.perf.read_event, "event=0x0a,rdwrmask=0x1");
  EXPECT_EQ(load.config.metrics.perf.write_event, "event=0x0a,rdwrmask=0x2");
  EXPECT_EQ(load.config.metrics.perf.queue_occupancy_event, "event=0x80");
  EXPECT_EQ(load.config.metrics.perf.queue_inserts_event, "event=0x10");
  EXPECT_EQ(load.config.metrics.perf.clock_event, "event=0x00,umask=0x00");
}

}  // namespace
}  // namespace nb::config
