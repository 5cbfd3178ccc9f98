// The scan of a tree under --host-root: the latency kind travels with the provider that answered,
// and only what the tree holds answers (the probe and perf would measure this machine).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/codec/scan_document.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "daemon/host/host_scanner.hpp"
#include "tests/daemon/host/host_fixture.hpp"

namespace nb::host {
namespace {

using ::testing::HasSubstr;

const TimePoint kNow = TimePoint(std::chrono::seconds(1'800'000'000));
constexpr std::string_view kLiveMachine =
    "off under --host-root: it would measure this machine, not the tree";

config::Config metrics_config(std::string latency, std::string bandwidth) {
  config::Config config;
  config.metrics.latency = std::move(latency);
  config.metrics.bandwidth = std::move(bandwidth);
  return config;
}

void make_host(const nb::testing::TempTree& tree) {
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
}

std::filesystem::path make_metrics_file(const nb::testing::TempTree& tree) {
  return tree.make_file("run/metrics.json",
                        R"({"time": 1800000000, "nodes": [{"id": 0, "read_latency_ns": 95}, )"
                        R"({"id": 1, "read_latency_ns": 120}, {"id": 2, "read_latency_ns": 130}, )"
                        R"({"id": 4, "read_latency_ns": 180}]})");
}

codec::SnapshotDocument scan_ok(const nb::testing::TempTree& tree, const config::Config& config) {
  HostScanner scanner(tree.root(), config);
  auto scan = scanner.scan(kNow);
  EXPECT_TRUE(scan.ok()) << scan.error().message();
  return scan.ok() ? codec::scan_document(*scan, config.policy, {}) : codec::SnapshotDocument{};
}

TEST(HostScannerReplay, AFileProviderUnderTheTreeAnswersAndItsKindTravels) {
  nb::testing::TempTree tree;
  make_host(tree);
  auto config = metrics_config("file", "none");
  config.metrics.file.path = make_metrics_file(tree).string();

  auto document = scan_ok(tree, config);

  EXPECT_EQ(document.snapshot.read_latency_kind, core::LatencyKind::external);
  EXPECT_EQ(document.snapshot.nodes.at(2).read_latency_ns, 130);
  EXPECT_EQ(codec::to_json(document)["read_latency_kind"], "external");
}

TEST(HostScannerReplay, WithoutALatencyProviderTheKindIsAbsent) {
  nb::testing::TempTree tree;
  make_host(tree);

  auto document = scan_ok(tree, metrics_config("none", "none"));

  EXPECT_EQ(document.snapshot.read_latency_kind, std::nullopt);
  EXPECT_FALSE(codec::to_json(document).contains("read_latency_kind"));
}

TEST(HostScannerReplay, AutoGetsNoLiveValuesAndMetaSaysWhy) {
  nb::testing::TempTree tree;
  make_host(tree);

  auto document = scan_ok(tree, metrics_config("auto", "auto"));

  for (const core::Node& node : document.snapshot.nodes) {
    EXPECT_FALSE(node.read_latency_ns.has_value()) << "node " << node.id;
    EXPECT_FALSE(node.bandwidth_gbps.has_value()) << "node " << node.id;
  }
  EXPECT_EQ(document.snapshot.read_latency_kind, std::nullopt);
  const auto& latency = document.meta["metrics"]["read_latency"];
  EXPECT_EQ(latency["available"], false);
  EXPECT_THAT(latency["unavailable_reason"].get<std::string>(),
              HasSubstr("probe: " + std::string(kLiveMachine)));
  EXPECT_THAT(latency["unavailable_reason"].get<std::string>(),
              HasSubstr("perf: " + std::string(kLiveMachine)));
  EXPECT_THAT(document.meta["metrics"]["bandwidth"]["unavailable_reason"].get<std::string>(),
              HasSubstr("perf: " + std::string(kLiveMachine)));
}

TEST(HostScannerReplay, AFileProviderOutsideTheTreeIsOffAndSaysWhere) {
  nb::testing::TempTree tree;
  nb::testing::TempTree elsewhere;
  make_host(tree);
  auto config = metrics_config("file", "none");
  config.metrics.file.path = make_metrics_file(elsewhere).string();

  auto document = scan_ok(tree, config);

  EXPECT_FALSE(document.snapshot.nodes.at(0).read_latency_ns.has_value());
  EXPECT_EQ(document.snapshot.read_latency_kind, std::nullopt);
  EXPECT_THAT(document.meta["metrics"]["read_latency"]["unavailable_reason"].get<std::string>(),
              HasSubstr("file: off under --host-root: " + config.metrics.file.path +
                        " is outside " + tree.root().string()));
}

TEST(HostScannerReplay, ATreeWithOnlyProcMountsIsScanned) {
  nb::testing::TempTree tree;
  make_host(tree);
  std::filesystem::rename(tree.path("proc/self/mounts"), tree.path("proc/mounts"));
  nb::testing::make_v2_cgroup(tree, "a", {{0, 4096}});
  auto config = metrics_config("none", "none");
  config.pools = {config::PoolConfig{.name = "share", .cgroups = {"*"}, .nodes = {}}};

  auto document = scan_ok(tree, config);

  EXPECT_EQ(document.meta["cgroup"]["mode"], "v2");
  EXPECT_EQ(document.snapshot.containers.size(), 1u);
}

}  // namespace
}  // namespace nb::host
