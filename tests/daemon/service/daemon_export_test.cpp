// The daemon's exports end to end: the textfile and the `metrics` command carry the same text,
// the audit log gets a line per acted round and per job, and `history` with a `since` reads it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/codec/audit_log.hpp"
#include "daemon/wire/audit_log_reader.hpp"
#include "tests/daemon/service/daemon_harness.hpp"
#include "tests/daemon/service/export/exposition_validator.hpp"
#include "tests/daemon/service/prometheus_tools.hpp"

namespace nb::service {
namespace {

using nb::testing::DaemonHarness;
using nb::testing::ready_decision;
using nb::testing::SocketClient;
using nb::testing::TempTree;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class DaemonExportTest : public ::testing::Test {
 protected:
  DaemonExportTest() : daemon(tree) {
    textfile = tree.make_dir("textfile") / "numabalancer.prom";
    audit_log = tree.make_dir("audit") / "audit.jsonl";
    daemon.config().export_.textfile = textfile.string();
    daemon.config().export_.audit_log = audit_log.string();
  }
  TempTree tree;
  DaemonHarness daemon;
  std::filesystem::path textfile;
  std::filesystem::path audit_log;
};

TEST_F(DaemonExportTest, TextfileCarriesTheMetricsCommandText) {
  ASSERT_TRUE(daemon.start().ok());
  ASSERT_TRUE(std::filesystem::exists(textfile)) << "written by the first round";
  daemon.set_decision(ready_decision({"pods/a"}));
  SocketClient client(daemon.socket());
  ASSERT_EQ(daemon.reconcile(client)["outcome"], "started");
  ASSERT_TRUE(daemon.wait_until_idle());

  std::string served = client.call("metrics")["result"]["text"];
  EXPECT_EQ(nb::testing::read_file(textfile), served);
  EXPECT_THAT(nb::testing::exposition_problems(served), IsEmpty());
  EXPECT_THAT(served, HasSubstr("numabalancer_rounds_total{outcome=\"started\"} 1\n"));
  EXPECT_THAT(served, HasSubstr("numabalancer_migrated_bytes_total{source=\"1\",dest=\"0\"} " +
                                std::to_string(256 * kMiB) + "\n"));
  EXPECT_THAT(served, HasSubstr("numabalancer_job_duration_seconds_count 1\n"));
}

// promtool's lint (base units, _total on counters, HELP on every family) on the textfile of a
// daemon that has run rounds and a job, with every family the export knows carrying samples.
TEST_F(DaemonExportTest, PromtoolFindsNothingToSayAboutTheTextfile) {
  auto promtool = nb::testing::find_program("promtool");
  if (!promtool) {
    GTEST_SKIP() << "promtool is not installed (scripts/setup.sh --tests installs prometheus)";
  }
  daemon.config().metrics.latency = "file";
  daemon.config().metrics.bandwidth = "file";
  daemon.config().metrics.baseline.read_latency_ns = {{0, 55}};
  daemon.fakes().bandwidth_gbps = 12.5;
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a"}));
  SocketClient client(daemon.socket());
  ASSERT_EQ(daemon.reconcile(client)["outcome"], "started");
  ASSERT_TRUE(daemon.wait_until_idle());
  daemon.set_decision(core::Decision{});
  ASSERT_TRUE(daemon.reconcile(client).is_object()) << "a round after the job rewrites the file";

  std::string text = nb::testing::read_file(textfile);
  for (const char* family :
       {"numabalancer_node_read_latency_seconds", "numabalancer_node_bandwidth_bytes_per_second",
        "numabalancer_node_anon_bytes", "numabalancer_node_baseline_read_latency_seconds",
        "numabalancer_node_baseline_samples", "numabalancer_pressure_level",
        "numabalancer_provider_up", "numabalancer_rounds_total",
        "numabalancer_migrated_bytes_total", "numabalancer_migration_pages_failed_total",
        "numabalancer_round_effects_total", "numabalancer_internal_errors_total",
        "numabalancer_job_duration_seconds_bucket",
        "numabalancer_move_call_duration_seconds_bucket",
        "numabalancer_log_messages_dropped_total"}) {
    bool sampled = text.find("\n" + std::string(family) + "{") != std::string::npos ||
                   text.find("\n" + std::string(family) + " ") != std::string::npos;
    EXPECT_TRUE(sampled) << family << " has no sample:\n" << text;
  }
  auto result = nb::testing::promtool_check(*promtool, textfile, tree.root());
  EXPECT_EQ(result.exit_code, 0) << result.problems;
  EXPECT_EQ(result.problems, "") << text;
}

// An alert on numabalancer_provider_up{provider="file"} == 0 fires only if the series keeps its
// label when the provider stops answering.
TEST_F(DaemonExportTest, ProviderUpKeepsTheConfiguredNameWhenTheProviderGoesDown) {
  daemon.config().metrics.latency = "file";
  daemon.config().metrics.bandwidth = "none";
  ASSERT_TRUE(daemon.start().ok());
  SocketClient client(daemon.socket());
  std::string up = client.call("metrics")["result"]["text"];
  EXPECT_THAT(up,
              HasSubstr("numabalancer_provider_up{metric=\"read_latency\",provider=\"file\"} 1\n"));

  {
    std::lock_guard lock(daemon.fakes().mutex);
    daemon.fakes().latency_provider_down = true;
  }
  ASSERT_TRUE(daemon.reconcile(client).is_object());
  std::string down = client.call("metrics")["result"]["text"];
  EXPECT_THAT(down,
              HasSubstr("numabalancer_provider_up{metric=\"read_latency\",provider=\"file\"} 0\n"));
  EXPECT_EQ(down.find("numabalancer_provider_up{metric=\"read_latency\",provider=\"\"}"),
            std::string::npos)
      << down;
  EXPECT_EQ(down.find("numabalancer_provider_up{metric=\"bandwidth\""), std::string::npos)
      << "bandwidth = \"none\" has no provider to watch";
  EXPECT_EQ(nb::testing::read_file(textfile), down);
}

TEST_F(DaemonExportTest, AuditLogHasARoundAndItsJobAndHistorySinceReadsThem) {
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a"}));
  SocketClient client(daemon.socket());
  ASSERT_EQ(daemon.reconcile(client)["outcome"], "started");
  ASSERT_TRUE(daemon.wait_until_idle());

  auto read = wire::read_audit_log(audit_log, std::nullopt);
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->entries.size(), 2u) << "the first round decided nothing and is not logged";
  const json& round = read->entries[0];
  const json& job = read->entries[1];
  EXPECT_EQ(round["kind"], "round");
  EXPECT_EQ(round["outcome"], "started");
  EXPECT_EQ(round["decision"]["migrate"][0]["id"], "pods/a");
  EXPECT_EQ(job["kind"], "job");
  EXPECT_EQ(job["round"], round["round"]);
  EXPECT_EQ(job["outcome"], "done");
  EXPECT_EQ(job["report"]["containers"][0]["processes"][0]["pid"], 1234);

  auto history = client.call("history", {{"since", "1h"}});
  ASSERT_EQ(history["ok"], true) << history.dump();
  ASSERT_EQ(history["result"]["entries"].size(), 2u);
  EXPECT_EQ(history["result"]["entries"][1]["kind"], "job");
  auto bad = client.call("history", {{"since", "soon"}});
  EXPECT_EQ(bad["ok"], false);
  EXPECT_EQ(bad["error"]["code"], "bad_request");
}

TEST_F(DaemonExportTest, UnwritableExportsDoNotStopTheDaemon) {
  daemon.config().export_.textfile = tree.path("missing/dir/nb.prom").string();
  daemon.config().export_.audit_log = tree.path("missing/dir/audit.jsonl").string();
  ASSERT_TRUE(daemon.start().ok());
  daemon.set_decision(ready_decision({"pods/a"}));
  SocketClient client(daemon.socket());
  ASSERT_EQ(daemon.reconcile(client)["outcome"], "started");
  ASSERT_TRUE(daemon.wait_until_idle());
  EXPECT_EQ(client.call("status")["ok"], true);
  EXPECT_EQ(daemon.migrate_calls(), 1);
}

}  // namespace
}  // namespace nb::service
