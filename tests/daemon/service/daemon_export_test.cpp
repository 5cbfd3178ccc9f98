// The daemon's exports end to end: the textfile and the `metrics` command carry the same text,
// the audit log gets a line per acted round and per job, and `history` with a `since` reads it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/codec/audit_log.hpp"
#include "daemon/wire/audit_log_reader.hpp"
#include "tests/daemon/service/daemon_harness.hpp"
#include "tests/daemon/service/export/exposition_validator.hpp"

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
  EXPECT_THAT(served, HasSubstr("numabalancer_rounds_total{status=\"started\"} 1\n"));
  EXPECT_THAT(served, HasSubstr("numabalancer_migrated_bytes_total{source=\"1\",dest=\"0\"} " +
                                std::to_string(256 * kMiB) + "\n"));
  EXPECT_THAT(served, HasSubstr("numabalancer_job_duration_seconds_count 1\n"));
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
