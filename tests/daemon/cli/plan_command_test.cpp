// `numabalancerd plan` run as an operator runs it: the built binary, files under tests/data/plan.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/temp_tree.hpp"

namespace nb::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

const fs::path kPlanData = fs::path(NB_SOURCE_DIR) / "tests/data/plan";
const fs::path kDaemon = fs::path(NB_BINARY_DIR) / "numabalancerd";

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string quoted(const fs::path& path) {
  return "'" + path.string() + "'";
}

// `arguments` is shell text; stdin comes from `input` when given.
Outcome run_daemon(const std::string& arguments, const fs::path& input = "/dev/null") {
  nb::testing::TempTree tree;
  const fs::path out = tree.path("stdout");
  const fs::path err = tree.path("stderr");
  const std::string command = quoted(kDaemon) + " " + arguments + " <" + quoted(input) + " >" +
                              quoted(out) + " 2>" + quoted(err);
  const int status = std::system(command.c_str());
  Outcome run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = nb::testing::read_file(out);
  run.err = nb::testing::read_file(err);
  return run;
}

// The plan goldens hold the seed's decisions; the daemon's default strategy is equalize.
const std::string kKatalyst =
    "--config '" + (fs::path(NB_SOURCE_DIR) / "tests/data/config/katalyst.toml").string() + "' ";

fs::path snapshot(const std::string& name) {
  return kPlanData / (name + ".snapshot.json");
}

nlohmann::json expected_decision(const std::string& name) {
  return nlohmann::json::parse(nb::testing::read_file(kPlanData / (name + ".decision.json")));
}

class PlanCommandGolden : public ::testing::TestWithParam<const char*> {};

TEST_P(PlanCommandGolden, PrintsTheDecisionJsonAndExitsZero) {
  const Outcome run =
      run_daemon("plan " + kKatalyst + "--snapshot " + quoted(snapshot(GetParam())));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out), expected_decision(GetParam()));
  EXPECT_EQ(run.err, "");
}

INSTANTIATE_TEST_SUITE_P(Files, PlanCommandGolden,
                         ::testing::Values("four_node_report", "issue_example", "vm_no_metrics",
                                           "partial_metrics", "idle", "cooldown_after_eviction",
                                           "bandwidth_medium", "single_node"));

class PlanCommandBadInput : public ::testing::TestWithParam<const char*> {};

TEST_P(PlanCommandBadInput, NamesTheJsonPathAndExitsTwo) {
  const Outcome run = run_daemon("plan --snapshot " + quoted(snapshot(GetParam())));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err,
            "numabalancerd plan: " + snapshot(GetParam()).string() + ": " +
                nb::testing::read_file(kPlanData / (std::string(GetParam()) + ".error.txt")));
}

INSTANTIATE_TEST_SUITE_P(Files, PlanCommandBadInput,
                         ::testing::Values("bad_distance_row", "negative_bytes", "unknown_key",
                                           "duplicate_node"));

TEST(PlanCommand, ReadsTheSnapshotFromStdin) {
  const Outcome run =
      run_daemon("plan " + kKatalyst + "--snapshot -", snapshot("bandwidth_medium"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out), expected_decision("bandwidth_medium"));
}

TEST(PlanCommand, ExplainPrintsTheJsonThenABlankLineThenTheReport) {
  const Outcome run = run_daemon("plan --explain " + kKatalyst + "--snapshot " +
                                 quoted(snapshot("four_node_report")));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto split = run.out.find("\n\n");
  ASSERT_NE(split, std::string::npos) << run.out;
  EXPECT_EQ(nlohmann::json::parse(run.out.substr(0, split)), expected_decision("four_node_report"));
  std::string report = nb::testing::read_file(kPlanData / "four_node_report.explain.txt");
  // The CLI asks for per-container lines; the library golden holds them too.
  EXPECT_EQ(run.out.substr(split + 2), report);
}

// The policy evicts the reclaim pool's biggest container and would also migrate it: with an
// eviction action the plan leaves it out of the migration and out of total_bytes, as the
// daemon's round and its job do; without one it migrates.
TEST(PlanCommand, AContainerTheEvictionActionEvictsIsNotAlsoMigrated) {
  nb::testing::TempTree tree;
  const fs::path freeze = tree.make_file(
      "freeze.toml", "[policy]\nstrategy = \"katalyst\"\n[eviction]\naction = \"freeze\"\n");
  const std::string evicted = "batch.slice/spark-2.scope";
  const Outcome kept =
      run_daemon("plan " + kKatalyst + "--snapshot " + quoted(snapshot("evict_and_migrate")));
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  const auto migrating = nlohmann::json::parse(kept.out);
  ASSERT_EQ(migrating["evict"][0]["id"], evicted);
  ASSERT_EQ(migrating["migrate"].size(), 2u);
  EXPECT_EQ(migrating["migrate"][1]["id"], evicted);
  EXPECT_EQ(migrating["total_bytes"], 3758096384);

  const Outcome run = run_daemon("plan --explain --config " + quoted(freeze) + " --snapshot " +
                                 quoted(snapshot("evict_and_migrate")));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto decision = nlohmann::json::parse(run.out.substr(0, run.out.find("\n\n")));
  EXPECT_EQ(decision["evict"][0]["id"], evicted);
  ASSERT_EQ(decision["migrate"].size(), 1u);
  EXPECT_EQ(decision["migrate"][0]["id"], "batch.slice/spark-1.scope");
  EXPECT_EQ(decision["total_bytes"], 1610612736);
  EXPECT_THAT(run.out, HasSubstr("  plan: batch.slice/spark-2.scope is evicted (freeze), not "
                                 "migrated\n"));
  EXPECT_THAT(run.out, HasSubstr("Plan: 1.5 GiB from node 0 to nodes 1, 3"));
}

// A snapshot taken while the exporter's file was stale: the report says why there is no latency,
// from the providers' reasons the daemon wrote into meta.
TEST(PlanCommand, ExplainGivesTheProvidersReasonForAMetricWithoutData) {
  nb::testing::TempTree tree;
  const fs::path file = tree.make_file("snapshot.json", R"({
    "time": "2026-12-02T10:00:00Z",
    "nodes": [
      {"id": 0, "bandwidth_gbps": 30, "distance": {"0": 10, "1": 21}},
      {"id": 1, "bandwidth_gbps": 20, "distance": {"0": 21, "1": 10}}
    ],
    "meta": {"metrics": {
      "read_latency": {"available": false, "provider": null,
                       "unavailable_reason": "file: /run/nb.prom: stale sample m{node=\"1\"}"},
      "bandwidth": {"available": true, "provider": "file"}}}
  })");
  const Outcome run = run_daemon("plan --explain --snapshot " + quoted(file));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("\nDecision: no_metrics - no node has a read latency\n"
                                 "Why:\n"
                                 "  read_latency unavailable: file: /run/nb.prom: stale sample "
                                 "m{node=\"1\"}\n"
                                 "  result: no_metrics, no node has a read latency\n"));
  EXPECT_THAT(run.out, Not(HasSubstr("bandwidth unavailable")));
}

TEST(PlanCommand, SnapshotOverridesWinOverTheConfigFile) {
  nb::testing::TempTree tree;
  // At the defaults node 0's 110 ns is force pressure; the file raises both thresholds above it.
  const fs::path config = tree.make_file("config.toml",
                                         "[policy]\n"
                                         "strategy = \"katalyst\"\n"
                                         "grace_read_latency_ns = 150\n"
                                         "force_read_latency_ns = 200\n");
  const std::string nodes = R"("time": "2026-12-02T10:00:00Z",
    "nodes": [
      {"id": 0, "read_latency_ns": 110, "bandwidth_gbps": 30, "distance": {"0": 10, "1": 21}},
      {"id": 1, "read_latency_ns": 40, "bandwidth_gbps": 20, "distance": {"0": 21, "1": 10}}
    ])";
  const fs::path plain = tree.make_file("plain.json", "{" + nodes + "}");
  const fs::path overridden = tree.make_file(
      "overridden.json",
      "{" + nodes +
          R"(, "config": {"policy": {"grace_read_latency_ns": 90, "force_read_latency_ns": 100}}})");

  const Outcome defaults = run_daemon("plan " + kKatalyst + "--snapshot " + quoted(plain));
  ASSERT_EQ(defaults.exit_code, 0) << defaults.err;
  EXPECT_EQ(nlohmann::json::parse(defaults.out)["level"], "force");

  const Outcome file_only =
      run_daemon("plan --config " + quoted(config) + " --snapshot " + quoted(plain));
  ASSERT_EQ(file_only.exit_code, 0) << file_only.err;
  EXPECT_EQ(nlohmann::json::parse(file_only.out)["status"], "idle");

  const Outcome both =
      run_daemon("plan --config " + quoted(config) + " --snapshot " + quoted(overridden));
  ASSERT_EQ(both.exit_code, 0) << both.err;
  const auto decision = nlohmann::json::parse(both.out);
  EXPECT_EQ(decision["level"], "force");
  // Nothing to move on this snapshot: pressure without a container is a failed round.
  EXPECT_EQ(decision["status"], "failed");
  EXPECT_EQ(decision["reason"], "pressure but no container can be migrated or evicted");
}

// Without a config, plan decides as the daemon does by default: equalize, with its prediction.
TEST(PlanCommand, TheDefaultStrategyIsEqualize) {
  nb::testing::TempTree tree;
  const fs::path file = tree.make_file("swap.json", R"({
    "time": "2026-12-02T10:00:00Z",
    "nodes": [
      {"id": 0, "read_latency_ns": 400, "baseline_read_latency_ns": 90, "bandwidth_gbps": 128,
       "distance": {"0": 10, "1": 21}},
      {"id": 1, "read_latency_ns": 92, "baseline_read_latency_ns": 90, "bandwidth_gbps": 0.5,
       "distance": {"0": 21, "1": 10}}
    ],
    "pools": [{"name": "share", "nodes": [0, 1]}, {"name": "reclaim", "nodes": [0, 1]}],
    "containers": [
      {"id": "web.service", "pool": "share", "anon_bytes": {"0": 25769803776}},
      {"id": "stream.scope", "pool": "reclaim", "anon_bytes": {"0": 12884901888}}
    ]})");
  const Outcome run = run_daemon("plan --snapshot " + quoted(file));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto decision = nlohmann::json::parse(run.out);
  EXPECT_EQ(decision["strategy"], "equalize");
  EXPECT_EQ(decision["status"], "ready");
  EXPECT_TRUE(decision["prediction"].is_object());
  EXPECT_LT(decision["total_bytes"].get<long long>(), 12LL << 30);  // a part of stream.scope
}

TEST(PlanCommand, ConfigFileProblemsExitTwo) {
  nb::testing::TempTree tree;
  const fs::path config = tree.make_file("config.toml", "[policy]\nno_such_key = 1\n");
  const Outcome run =
      run_daemon("plan --config " + quoted(config) + " --snapshot " + quoted(snapshot("idle")));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("no_such_key"));
  EXPECT_EQ(run.out, "");
}

TEST(PlanCommand, InvalidOverrideValueExitsTwoNamingTheKey) {
  nb::testing::TempTree tree;
  const fs::path file = tree.make_file("snapshot.json", R"({
    "nodes": [{"id": 0, "distance": {"0": 10}}],
    "config": {"policy": {"round_max_bytes": "12GB"}}
  })");
  const Outcome run = run_daemon("plan --snapshot " + quoted(file));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr(": config.policy.round_max_bytes: invalid size \"12GB\""));
}

TEST(PlanCommand, MissingSnapshotFileExitsTwo) {
  const Outcome run = run_daemon("plan --snapshot /nonexistent/snapshot.json");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, StartsWith("numabalancerd plan: cannot read /nonexistent/snapshot.json"));
}

TEST(PlanCommand, SnapshotOptionIsRequired) {
  const Outcome run = run_daemon("plan");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("--snapshot"));
}

TEST(PlanCommand, HelpDocumentsTheExplainLayout) {
  const Outcome run = run_daemon("plan --help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_THAT(run.out, HasSubstr("blank line"));
}

}  // namespace
}  // namespace nb::cli
