#include "daemon/host/host_scanner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "daemon/codec/policy_overrides.hpp"
#include "daemon/codec/scan_document.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "tests/daemon/host/host_fixture.hpp"

namespace nb::host {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

const TimePoint kNow = TimePoint(std::chrono::seconds(1'800'000'000));

// No metric provider: the fake host has no counters, and the real host's must not leak in.
config::Config offline_config(std::vector<config::PoolConfig> pools) {
  config::Config config;
  config.metrics.latency = "none";
  config.metrics.bandwidth = "none";
  config.pools = std::move(pools);
  return config;
}

config::PoolConfig auto_pool(std::string name, std::vector<std::string> globs) {
  return config::PoolConfig{.name = std::move(name), .cgroups = std::move(globs), .nodes = {}};
}

HostScan typed_scan_ok(const nb::testing::TempTree& tree, const config::Config& config) {
  HostScanner scanner(tree.root(), config);
  auto scan = scanner.scan(kNow);
  EXPECT_TRUE(scan.ok()) << scan.error().message();
  return scan.ok() ? std::move(scan).value() : HostScan{};
}

// The scan as the edges write it: the report as "meta", the [policy] as "config.policy".
codec::SnapshotDocument scan_ok(const nb::testing::TempTree& tree, const config::Config& config) {
  return codec::scan_document(typed_scan_ok(tree, config), config.policy, {});
}

const core::Pool* find_pool(const core::Snapshot& snapshot, std::string_view name) {
  for (const core::Pool& pool : snapshot.pools) {
    if (pool.name == name) {
      return &pool;
    }
  }
  return nullptr;
}

TEST(HostScanner, V2HostGivesTopologyPoolsContainersAndMeta) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
  tree.make_file("proc/sys/kernel/hostname", "fake-host\n");
  nb::testing::make_v2_cgroup(tree, "kubepods/pod1/c1", {{0, 3 * kMiB}, {4, 1 * kMiB}});
  nb::testing::make_v2_cgroup(tree, "kubepods/pod1", {{0, 3 * kMiB}, {4, 1 * kMiB}});
  nb::testing::make_v2_cgroup(tree, "kubepods/pod2", {{1, 5 * kMiB}});
  nb::testing::make_v2_cgroup(tree, "system.slice/batch.service", {{2, 7 * kMiB}});
  tree.make_file("sys/fs/cgroup/kubepods/pod1/c1/cpuset.cpus.effective", "0-1\n");
  tree.make_file("sys/fs/cgroup/kubepods/pod2/cpuset.cpus.effective", "4\n");

  auto document =
      scan_ok(tree, offline_config({auto_pool("share", {"kubepods/**"}),
                                    config::PoolConfig{.name = "reclaim",
                                                       .cgroups = {"system.slice/*.service"},
                                                       .nodes = std::vector<NodeId>{2, 4}}}));

  const core::Snapshot& snapshot = document.snapshot;
  EXPECT_EQ(snapshot.time, kNow);
  ASSERT_EQ(snapshot.nodes.size(), 4u);
  EXPECT_TRUE(snapshot.nodes[3].memory_only());
  ASSERT_EQ(snapshot.containers.size(), 3u);
  EXPECT_EQ(snapshot.containers[0].id, "kubepods/pod1/c1");
  EXPECT_EQ(snapshot.containers[0].pool, "share");
  EXPECT_THAT(snapshot.containers[0].anon_bytes, ElementsAre(Pair(0, 3 * kMiB), Pair(4, kMiB)));
  EXPECT_EQ(snapshot.containers[1].id, "kubepods/pod2");
  EXPECT_EQ(snapshot.containers[2].id, "system.slice/batch.service");
  EXPECT_EQ(snapshot.containers[2].pool, "reclaim");
  ASSERT_NE(find_pool(snapshot, "share"), nullptr);
  EXPECT_THAT(find_pool(snapshot, "share")->nodes, ElementsAre(0, 1));
  EXPECT_THAT(find_pool(snapshot, "reclaim")->nodes, ElementsAre(2, 4));

  const nlohmann::json& meta = document.meta;
  EXPECT_EQ(meta["host"], "fake-host");
  EXPECT_EQ(meta["cgroup"]["mode"], "v2");
  EXPECT_EQ(meta["cgroup"]["discovery"], "mounts");
  EXPECT_EQ(meta["scan"]["containers"], 3);
  EXPECT_EQ(meta["scan"]["vanished"], 0);
  EXPECT_EQ(meta["metrics"]["read_latency"]["available"], false);
  EXPECT_FALSE(meta["metrics"]["read_latency"]["unavailable_reason"].get<std::string>().empty());
  EXPECT_TRUE(document.history.empty());
}

TEST(HostScanner, HybridHostReadsTheV1MemoryHierarchyInPages) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_hybrid_host(tree);
  nb::testing::make_v1_cgroup(tree, "process_api/a", {{0, 10}, {1, 2}}, {{0, 10}, {1, 2}});
  nb::testing::make_v1_cgroup(tree, "process_api/b", {{0, 1}}, {{0, 100}, {2, 50}});
  tree.make_dir("sys/fs/cgroup/memory/process_api/b/child");

  auto document = scan_ok(tree, offline_config({auto_pool("share", {"process_api/?"})}));

  const auto page = static_cast<Bytes>(::sysconf(_SC_PAGESIZE));
  ASSERT_EQ(document.snapshot.containers.size(), 2u);
  EXPECT_THAT(document.snapshot.containers[0].anon_bytes,
              ElementsAre(Pair(0, 10 * page), Pair(1, 2 * page)));
  // b has a child cgroup: its hierarchical line counts the child's pages too.
  EXPECT_THAT(document.snapshot.containers[1].anon_bytes,
              ElementsAre(Pair(0, 100 * page), Pair(2, 50 * page)));
  EXPECT_EQ(document.meta["cgroup"]["mode"], "hybrid");
  // The v1 cpuset tree has no process_api: the root's CPUs (every CPU node) answer.
  EXPECT_THAT(document.snapshot.pools.at(0).nodes, ElementsAre(0, 1, 2));
}

TEST(HostScanner, V1HostWithoutCpusetUsesEveryNodeWithCpusForAutoPools) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  tree.make_file("proc/self/mounts", "cgroup /sys/fs/cgroup/memory cgroup rw,memory 0 0\n");
  nb::testing::make_v1_cgroup(tree, "a", {{4, 3}}, {{4, 3}});

  auto document = scan_ok(tree, offline_config({auto_pool("share", {"*"})}));

  EXPECT_EQ(document.meta["cgroup"]["mode"], "v1");
  ASSERT_EQ(document.snapshot.containers.size(), 1u);
  EXPECT_THAT(document.snapshot.pools.at(0).nodes, ElementsAre(0, 1, 2));
}

TEST(HostScanner, PoolThatMatchesNothingStillAppearsWithEveryNodeWithCpus) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);

  auto document = scan_ok(tree, offline_config({auto_pool("share", {"nothing/*"})}));

  ASSERT_EQ(document.snapshot.pools.size(), 1u);
  EXPECT_THAT(document.snapshot.pools[0].nodes, ElementsAre(0, 1, 2));
  EXPECT_TRUE(document.snapshot.containers.empty());
}

TEST(HostScanner, CgroupsWithoutOrWithGarbageNumaStatAreSkippedAndCounted) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
  nb::testing::make_v2_cgroup(tree, "good", {{0, 4096}});
  tree.make_dir("sys/fs/cgroup/no-memory-controller");
  tree.make_file("sys/fs/cgroup/garbage/memory.numa_stat", "anon N0=many\n");

  auto document = scan_ok(tree, offline_config({auto_pool("share", {"*"})}));

  ASSERT_EQ(document.snapshot.containers.size(), 1u);
  EXPECT_EQ(document.snapshot.containers[0].id, "good");
  const nlohmann::json& scan = document.meta["scan"];
  EXPECT_EQ(scan["cgroups_seen"], 3);
  EXPECT_EQ(scan["without_numa_stat"], 1);
  EXPECT_EQ(scan["unreadable"], 1);
  EXPECT_THAT(scan["errors"][0].get<std::string>(),
              HasSubstr(tree.path("sys/fs/cgroup/garbage").string()));
}

TEST(HostScanner, CgroupMatchedByTwoPoolsIsLeftOutAndNamedInMeta) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
  nb::testing::make_v2_cgroup(tree, "a", {{0, 4096}});

  auto document =
      scan_ok(tree, offline_config({auto_pool("share", {"*"}), auto_pool("reclaim", {"a"})}));

  EXPECT_TRUE(document.snapshot.containers.empty());
  EXPECT_EQ(document.meta["scan"]["pool_conflicts"][0],
            "cgroup a is matched by pools share and reclaim");
}

TEST(HostScanner, FileProviderMetricsFillTheNodesAndMetaNamesIt) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
  const auto metrics_file = tree.make_file(
      "metrics.json",
      R"({"time": 1800000000, "nodes": [{"id": 0, "read_latency_ns": 95.5, "bandwidth_gbps": 12},)"
      R"( {"id": 4, "read_latency_ns": 180}]})");
  config::Config config = offline_config({});
  config.metrics.latency = "file";
  config.metrics.bandwidth = "file";
  config.metrics.file.path = metrics_file.string();

  auto document = scan_ok(tree, config);

  const auto& nodes = document.snapshot.nodes;
  EXPECT_EQ(nodes[0].read_latency_ns, 95.5);
  EXPECT_EQ(nodes[0].bandwidth_gbps, 12);
  EXPECT_FALSE(nodes[1].read_latency_ns.has_value());
  EXPECT_EQ(nodes[3].read_latency_ns, 180);
  EXPECT_FALSE(nodes[3].bandwidth_gbps.has_value());
  EXPECT_EQ(document.meta["metrics"]["read_latency"]["provider"], "file");
  EXPECT_EQ(document.meta["metrics"]["read_latency"]["kind"], "external");
  EXPECT_EQ(document.meta["metrics"]["bandwidth"]["provider"], "file");
}

TEST(HostScanner, EffectivePolicyTravelsWithTheDocument) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
  config::Config config = offline_config({});
  config.policy.grace_read_latency_ns = 75;
  config.policy.container_min_bytes = 64 * kMiB;
  config.policy.ping_pong_window = std::chrono::minutes(20);

  auto document = scan_ok(tree, config);
  auto reparsed = codec::parse_snapshot(codec::to_json(document).dump(), kNow);
  ASSERT_TRUE(reparsed.ok()) << reparsed.error().message();
  auto policy = codec::apply_policy_overrides(core::PolicyConfig{}, reparsed->policy_overrides);

  ASSERT_TRUE(policy.ok()) << policy.error().message();
  EXPECT_EQ(policy->grace_read_latency_ns, 75);
  EXPECT_EQ(policy->container_min_bytes, 64 * kMiB);
  EXPECT_EQ(policy->ping_pong_window, std::chrono::minutes(20));
}

TEST(PolicyJson, EveryPolicyFieldRoundTripsThroughTheCodec) {
  core::PolicyConfig policy;
  policy.grace_read_latency_ns = 71;
  policy.force_read_latency_ns = 91;
  policy.grace_latency_gap_ns = 41;
  policy.grace_max_distance = 21;
  policy.grace_gap_ratio = 0.16;
  policy.force_gap_ratio = 0.21;
  policy.bandwidth_high_ratio = 0.81;
  policy.bandwidth_medium_ratio = 0.51;
  policy.container_min_bytes = 129 * kMiB;
  policy.container_max_bytes = 11 * kGiB;
  policy.reclaim_container_min_bytes = 130 * kMiB;
  policy.reclaim_container_max_bytes = 16 * kGiB;
  policy.round_max_bytes = 13 * kGiB;
  policy.reclaim_round_max_bytes = 17 * kGiB;
  policy.reclaim_round_enough_bytes = 4 * kGiB;
  policy.supported_pools = {"share", "batch"};
  policy.reclaim_pool = "spare";
  policy.migrate_threshold = 0.71;
  policy.min_interval = std::chrono::seconds(31);
  policy.ping_pong_window = std::chrono::minutes(16);

  auto back =
      codec::apply_policy_overrides(core::PolicyConfig{}, codec::policy_overrides_json(policy));

  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(back->grace_read_latency_ns, 71);
  EXPECT_EQ(back->force_read_latency_ns, 91);
  EXPECT_EQ(back->grace_latency_gap_ns, 41);
  EXPECT_EQ(back->grace_max_distance, 21);
  EXPECT_EQ(back->grace_gap_ratio, 0.16);
  EXPECT_EQ(back->force_gap_ratio, 0.21);
  EXPECT_EQ(back->bandwidth_high_ratio, 0.81);
  EXPECT_EQ(back->bandwidth_medium_ratio, 0.51);
  EXPECT_EQ(back->container_min_bytes, 129 * kMiB);
  EXPECT_EQ(back->container_max_bytes, 11 * kGiB);
  EXPECT_EQ(back->reclaim_container_min_bytes, 130 * kMiB);
  EXPECT_EQ(back->reclaim_container_max_bytes, 16 * kGiB);
  EXPECT_EQ(back->round_max_bytes, 13 * kGiB);
  EXPECT_EQ(back->reclaim_round_max_bytes, 17 * kGiB);
  EXPECT_EQ(back->reclaim_round_enough_bytes, 4 * kGiB);
  EXPECT_EQ(back->supported_pools, (std::vector<std::string>{"share", "batch"}));
  EXPECT_EQ(back->reclaim_pool, "spare");
  EXPECT_EQ(back->migrate_threshold, 0.71);
  EXPECT_EQ(back->min_interval, std::chrono::seconds(31));
  EXPECT_EQ(back->ping_pong_window, std::chrono::minutes(16));
}

TEST(HostScanner, ReportIsTypedBeforeAnyJson) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
  tree.make_file("proc/sys/kernel/hostname", "fake-host\n");
  nb::testing::make_v2_cgroup(tree, "a", {{0, 4096}});
  nb::testing::make_v2_cgroup(tree, "b", {{1, 4096}});

  const HostScan scan = typed_scan_ok(tree, offline_config({auto_pool("share", {"*"})}));

  EXPECT_EQ(scan.report.host, "fake-host");
  EXPECT_EQ(scan.report.cgroup.mode, CgroupMode::v2);
  EXPECT_EQ(scan.report.counts.cgroups_seen, 2u);
  EXPECT_EQ(scan.report.counts.containers, 2u);
  EXPECT_TRUE(scan.report.counts.pool_conflicts.empty());
  ASSERT_EQ(scan.report.providers.size(), 2u);
  const ProviderReport* latency = scan.report.provider(metrics::Metric::read_latency);
  ASSERT_NE(latency, nullptr);
  EXPECT_FALSE(latency->available);
  EXPECT_TRUE(latency->provider.empty());
  EXPECT_FALSE(latency->reason.empty());
}

TEST(HostScanner, MissingTopologyFailsTheScan) {
  nb::testing::TempTree tree;
  nb::testing::make_v2_host(tree);
  HostScanner scanner(tree.root(), offline_config({}));
  auto document = scanner.scan(kNow);
  ASSERT_FALSE(document.ok());
  EXPECT_EQ(document.error().code, ENOENT);
}

TEST(HostScanner, MissingCgroupMountsFailTheScan) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  HostScanner scanner(tree.root(), offline_config({}));
  auto document = scanner.scan(kNow);
  ASSERT_FALSE(document.ok());
  EXPECT_THAT(document.error().message(), HasSubstr("proc/self/mounts"));
}

TEST(HostScanner, ScanningTwiceSeesChangesBetweenRounds) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
  nb::testing::make_v2_cgroup(tree, "a", {{0, 4096}});
  HostScanner scanner(tree.root(), offline_config({auto_pool("share", {"*"})}));

  auto first = scanner.scan(kNow);
  nb::testing::make_v2_cgroup(tree, "a", {{0, 8192}});
  nb::testing::make_v2_cgroup(tree, "b", {{1, 4096}});
  auto second = scanner.scan(kNow + std::chrono::seconds(10));

  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->snapshot.containers.size(), 1u);
  ASSERT_EQ(second->snapshot.containers.size(), 2u);
  EXPECT_EQ(second->snapshot.containers[0].anon_on(0), 8192);
}

// The live host: whatever it holds, the scan succeeds and the codec accepts the document.
TEST(HostScannerOnThisHost, ProducesADocumentTheCodecReadsBack) {
  config::Config config = offline_config({auto_pool("all", {"**"})});
  HostScanner scanner("/", config);
  auto document = scanner.scan(std::chrono::system_clock::now());
  ASSERT_TRUE(document.ok()) << document.error().message();
  EXPECT_FALSE(document->snapshot.nodes.empty());
  auto reparsed = codec::parse_snapshot(
      codec::to_json(codec::scan_document(*document, config.policy, {})).dump(), kNow);
  ASSERT_TRUE(reparsed.ok()) << reparsed.error().message();
  EXPECT_EQ(reparsed->snapshot.containers.size(), document->snapshot.containers.size());
}

}  // namespace
}  // namespace nb::host
