// `numabalancerd snapshot` run as an operator runs it: the built binary, a config file, a host
// root, stdout and the exit code.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <ctime>
#include <string>

#include "daemon/codec/snapshot_json.hpp"
#include "tests/daemon/host/host_fixture.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::cli {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kDaemon = std::string(NB_BINARY_DIR) + "/numabalancerd";

struct CommandOutput {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `command` through the shell, with stdout and stderr captured in files of `scratch`.
CommandOutput run_command(const std::string& command, const nb::testing::TempTree& scratch) {
  const auto out = scratch.path("stdout");
  const auto err = scratch.path("stderr");
  const int status =
      std::system((command + " >'" + out.string() + "' 2>'" + err.string() + "'").c_str());
  CommandOutput result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = nb::testing::read_file(out);
  result.err = nb::testing::read_file(err);
  return result;
}

constexpr std::string_view kOfflineConfig = R"(
[[pool]]
name = "share"
cgroups = ["kubepods/**"]

[metrics]
latency = "none"
bandwidth = "none"
)";

void make_fake_host(const nb::testing::TempTree& host) {
  nb::testing::make_four_node_sysfs(host);
  nb::testing::make_v2_host(host);
  host.make_file("proc/sys/kernel/hostname", "fake-host\n");
  nb::testing::make_v2_cgroup(host, "kubepods/pod1", {{0, 512 * kMiB}, {1, 64 * kMiB}});
  nb::testing::make_v2_cgroup(host, "kubepods/pod2", {{4, 256 * kMiB}});
}

TEST(SnapshotCommand, PrintsTheFakeHostUnderHostRootAsASnapshotDocument) {
  nb::testing::TempTree host;
  nb::testing::TempTree scratch;
  make_fake_host(host);
  const auto config = scratch.make_file("config.toml", kOfflineConfig);

  CommandOutput result = run_command(kDaemon + " snapshot --config '" + config.string() +
                                         "' --host-root '" + host.root().string() + "'",
                                     scratch);

  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto document = codec::parse_snapshot(result.out, TimePoint{});
  ASSERT_TRUE(document.ok()) << document.error().message() << "\n" << result.out;
  ASSERT_EQ(document->snapshot.nodes.size(), 4u);
  EXPECT_EQ(document->snapshot.nodes[3].id, 4);
  ASSERT_EQ(document->snapshot.containers.size(), 2u);
  EXPECT_EQ(document->snapshot.containers[0].id, "kubepods/pod1");
  EXPECT_EQ(document->snapshot.containers[0].anon_on(0), 512 * kMiB);
  EXPECT_EQ(document->snapshot.containers[1].anon_on(4), 256 * kMiB);
  EXPECT_EQ(document->meta["host"], "fake-host");
  EXPECT_EQ(document->meta["host_root"], host.root().string());
  EXPECT_EQ(document->meta["cgroup"]["mode"], "v2");
  EXPECT_TRUE(result.err.empty()) << result.err;
}

TEST(SnapshotCommand, ConfigMayFollowTheSubcommandOrPrecedeIt) {
  nb::testing::TempTree host;
  nb::testing::TempTree scratch;
  make_fake_host(host);
  const auto config = scratch.make_file("config.toml", kOfflineConfig);

  CommandOutput result = run_command(kDaemon + " --config '" + config.string() +
                                         "' snapshot --host-root '" + host.root().string() + "'",
                                     scratch);

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("kubepods/pod2"));
}

TEST(SnapshotCommand, CarriesTheDaemonsPersistedRoundsAsHistory) {
  nb::testing::TempTree host;
  nb::testing::TempTree scratch;
  make_fake_host(host);
  scratch.make_file("state/state.json", R"({"version": 1, "rounds": [
    {"number": 1, "time": "2026-12-02T09:55:00Z", "status": "ready", "outcome": "acted",
     "source_node": 1, "dest_nodes": [0], "migrated": true},
    {"number": 2, "time": "2026-12-02T09:56:00Z", "status": "idle", "outcome": "none",
     "migrated": false}]})");
  const auto config =
      scratch.make_file("config.toml", std::string(kOfflineConfig) + "\n[daemon]\nstate_dir = \"" +
                                           scratch.path("state").string() + "\"\n");

  CommandOutput result = run_command(kDaemon + " snapshot --config '" + config.string() +
                                         "' --host-root '" + host.root().string() + "'",
                                     scratch);

  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto document = codec::parse_snapshot(result.out, TimePoint{});
  ASSERT_TRUE(document.ok()) << document.error().message();
  ASSERT_EQ(document->history.size(), 1u) << "only rounds that acted are history";
  EXPECT_EQ(document->history[0].source_node, 1);
  EXPECT_EQ(document->history[0].dest_nodes, std::vector<NodeId>{0});
  EXPECT_TRUE(document->history[0].migrated);
}

// The file provider under the host root measures nodes 0 and 1; the state file holds readings of
// node 0 by `saved_provider` of `saved_kind`.
CommandOutput snapshot_with_saved_baselines(const std::string& saved_provider,
                                            const std::string& saved_kind,
                                            const nb::testing::TempTree& host,
                                            const nb::testing::TempTree& scratch) {
  make_fake_host(host);
  const long long now_s = static_cast<long long>(std::time(nullptr));
  host.make_file("metrics.json", "{\"time\": " + std::to_string(now_s) +
                                     ", \"nodes\": [{\"id\": 0, \"read_latency_ns\": 130},"
                                     " {\"id\": 1, \"read_latency_ns\": 190}]}");
  const long long hour_ago_ms = (now_s - 3600) * 1000;
  scratch.make_file("state/state.json",
                    "{\"version\": 1, \"rounds\": [], \"baselines\": {\"provider\": \"" +
                        saved_provider + "\", \"kind\": \"" + saved_kind +
                        "\", \"nodes\": {\"0\": [[" + std::to_string(hour_ago_ms) + ", 91.5], [" +
                        std::to_string(hour_ago_ms + 10000) + ", 99]]}}}");
  const auto config =
      scratch.make_file("config.toml",
                        "[metrics]\nlatency = \"file\"\nbandwidth = \"none\"\n"
                        "[metrics.file]\npath = \"" +
                            host.path("metrics.json").string() +
                            "\"\n[metrics.baseline]\nmin_samples = 2\n"
                            "read_latency_ns = { \"1\" = 141.5 }\n[daemon]\nstate_dir = \"" +
                            scratch.path("state").string() + "\"\n");
  return run_command(kDaemon + " snapshot --config '" + config.string() + "' --host-root '" +
                         host.root().string() + "'",
                     scratch);
}

TEST(SnapshotCommand, CarriesTheDaemonsLearnedAndConfiguredBaselines) {
  nb::testing::TempTree host;
  nb::testing::TempTree scratch;
  CommandOutput result = snapshot_with_saved_baselines("file", "external", host, scratch);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto document = codec::parse_snapshot(result.out, TimePoint{});
  ASSERT_TRUE(document.ok()) << document.error().message() << "\n" << result.out;
  EXPECT_EQ(document->snapshot.nodes[0].read_latency_ns, 130.0) << result.out;
  ASSERT_TRUE(document->snapshot.nodes[0].baseline_read_latency_ns.has_value()) << result.out;
  EXPECT_DOUBLE_EQ(*document->snapshot.nodes[0].baseline_read_latency_ns, 91.5 + 0.05 * 7.5);
  EXPECT_EQ(document->snapshot.nodes[1].baseline_read_latency_ns, 141.5);
  EXPECT_FALSE(document->snapshot.nodes[2].baseline_read_latency_ns.has_value());
}

TEST(SnapshotCommand, BaselinesLearnedFromAnotherKindAreNotCarried) {
  nb::testing::TempTree host;
  nb::testing::TempTree scratch;
  CommandOutput result = snapshot_with_saved_baselines("file", "load_to_use", host, scratch);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto document = codec::parse_snapshot(result.out, TimePoint{});
  ASSERT_TRUE(document.ok()) << document.error().message();
  EXPECT_FALSE(document->snapshot.nodes[0].baseline_read_latency_ns.has_value());
  EXPECT_EQ(document->snapshot.nodes[1].baseline_read_latency_ns, 141.5);
}

TEST(SnapshotCommand, CorruptStateFileIsReportedAndLeftInPlace) {
  nb::testing::TempTree host;
  nb::testing::TempTree scratch;
  make_fake_host(host);
  const auto state = scratch.make_file("state/state.json", "{not json");
  const auto config =
      scratch.make_file("config.toml", std::string(kOfflineConfig) + "\n[daemon]\nstate_dir = \"" +
                                           scratch.path("state").string() + "\"\n");

  CommandOutput result = run_command(kDaemon + " snapshot --config '" + config.string() +
                                         "' --host-root '" + host.root().string() + "'",
                                     scratch);

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("ignoring " + state.string()));
  EXPECT_EQ(nb::testing::read_file(state), "{not json") << "snapshot must not touch the state";
}

TEST(SnapshotCommand, UnreadableHostExitsTwoNamingThePath) {
  nb::testing::TempTree host;
  nb::testing::TempTree scratch;

  CommandOutput result = run_command(
      kDaemon + " snapshot --host-root '" + host.path("absent").string() + "'", scratch);

  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(result.out.empty()) << result.out;
  EXPECT_THAT(result.err, StartsWith("numabalancerd snapshot: "));
  EXPECT_THAT(result.err, HasSubstr(host.path("absent").string()));
}

TEST(SnapshotCommand, InvalidConfigExitsTwoWithTheProblem) {
  nb::testing::TempTree host;
  nb::testing::TempTree scratch;
  make_fake_host(host);
  const auto config = scratch.make_file("config.toml", "[metrics]\nlatencyy = \"none\"\n");

  CommandOutput result = run_command(kDaemon + " snapshot --config '" + config.string() +
                                         "' --host-root '" + host.root().string() + "'",
                                     scratch);

  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(result.out.empty()) << result.out;
  EXPECT_THAT(result.err, HasSubstr("latencyy"));
}

// Replays stay replays: a captured 4-node tree must not get this machine's probe latency for
// its node 0 and none for the others (which planned "failed: node 2 has no read latency").
TEST(SnapshotCommand, AutoLatencyUnderHostRootTakesNothingFromThisMachineAndSaysWhy) {
  nb::testing::TempTree host;
  nb::testing::TempTree scratch;
  make_fake_host(host);
  const auto config = scratch.make_file("config.toml", R"(
[[pool]]
name = "share"
cgroups = ["kubepods/**"]

[metrics]
latency = "auto"
bandwidth = "auto"
)");
  const std::string snapshot = kDaemon + " snapshot --config '" + config.string() +
                               "' --host-root '" + host.root().string() + "'";

  CommandOutput result = run_command(snapshot, scratch);

  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  for (const auto& node : json["nodes"]) {
    EXPECT_TRUE(!node.contains("read_latency_ns") || node["read_latency_ns"].is_null()) << node;
  }
  EXPECT_FALSE(json.contains("read_latency_kind")) << "no provider answered";
  const auto& latency = json["meta"]["metrics"]["read_latency"];
  EXPECT_EQ(latency["available"], false);
  EXPECT_THAT(latency["unavailable_reason"].get<std::string>(),
              HasSubstr("probe: off under --host-root: it would measure this machine, not the "
                        "tree"));

  CommandOutput plan = run_command(snapshot + " | " + kDaemon + " plan --snapshot -", scratch);
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_EQ(nlohmann::json::parse(plan.out)["status"], "no_metrics") << plan.out;
}

// What the tree holds counts: a metrics file under the host root answers, and its kind travels.
TEST(SnapshotCommand, AFileProviderUnderHostRootAnswersWithItsKind) {
  nb::testing::TempTree host;
  nb::testing::TempTree scratch;
  make_fake_host(host);
  const auto metrics =
      host.make_file("run/metrics.json", "{\"time\": " + std::to_string(std::time(nullptr)) +
                                             R"(, "nodes": [
      {"id": 0, "read_latency_ns": 95, "bandwidth_gbps": 10},
      {"id": 1, "read_latency_ns": 120, "bandwidth_gbps": 10},
      {"id": 2, "read_latency_ns": 130, "bandwidth_gbps": 10},
      {"id": 4, "read_latency_ns": 180, "bandwidth_gbps": 10}]})");
  const auto config = scratch.make_file("config.toml", R"(
[[pool]]
name = "share"
cgroups = ["kubepods/**"]

[metrics]
latency = "file"
bandwidth = "file"

[metrics.file]
path = ")" + metrics.string() + "\"\n");
  const std::string snapshot = kDaemon + " snapshot --config '" + config.string() +
                               "' --host-root '" + host.root().string() + "'";

  CommandOutput result = run_command(snapshot, scratch);

  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto document = codec::parse_snapshot(result.out, TimePoint{});
  ASSERT_TRUE(document.ok()) << document.error().message() << "\n" << result.out;
  EXPECT_EQ(document->snapshot.read_latency_kind, core::LatencyKind::external);
  EXPECT_EQ(document->snapshot.nodes[2].read_latency_ns, 130);
  EXPECT_EQ(document->meta["metrics"]["read_latency"]["provider"], "file");

  CommandOutput plan = run_command(snapshot + " | " + kDaemon + " plan --snapshot -", scratch);
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const auto decision = nlohmann::json::parse(plan.out);
  EXPECT_NE(decision["status"], "failed") << plan.out;
  EXPECT_NE(decision["status"], "no_metrics") << plan.out;
}

// This host: no counters (a VM), so the plan must decline with a reason rather than act.
TEST(SnapshotCommandOnThisHost, PlanOnTheLiveSnapshotAnswersNoMetricsOrIdle) {
  nb::testing::TempTree scratch;

  CommandOutput snapshot = run_command(kDaemon + " snapshot", scratch);
  ASSERT_EQ(snapshot.exit_code, 0) << snapshot.err;
  auto document = codec::parse_snapshot(snapshot.out, TimePoint{});
  ASSERT_TRUE(document.ok()) << document.error().message();
  EXPECT_FALSE(document->snapshot.nodes.empty());

  CommandOutput plan =
      run_command(kDaemon + " snapshot | " + kDaemon + " plan --snapshot -", scratch);
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const auto decision = nlohmann::json::parse(plan.out);
  EXPECT_THAT(decision["status"].get<std::string>(), AnyOf("no_metrics", "idle"));
  EXPECT_FALSE(decision["reason"].get<std::string>().empty());
}

}  // namespace
}  // namespace nb::cli
