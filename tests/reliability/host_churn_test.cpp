// The host scanner while containers come and go: a second thread creates and removes cgroups as
// fast as it can (each one appearing and vanishing whole, as cgroupfs does) while rounds scan.
// Every scan must succeed, see the cgroups that never change exactly, and see each churning one
// either whole or not at all.

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>

#include "daemon/host/host_scanner.hpp"
#include "tests/daemon/host/host_fixture.hpp"

namespace nb::reliability {
namespace {

const TimePoint kNow = TimePoint(std::chrono::seconds(1'800'000'000));

TEST(HostChurn, ScansWhileCgroupsComeAndGoSeeEachWholeOrNotAtAll) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
  nb::testing::make_v2_cgroup(tree, "kubepods/stable", {{0, 3 * kMiB}, {1, kMiB}});
  tree.make_dir("staging");
  config::Config config;
  config.metrics.latency = "none";
  config.metrics.bandwidth = "none";
  config.pools = {config::PoolConfig{.name = "share", .cgroups = {"kubepods/*"}, .nodes = {}}};

  std::atomic<bool> stop{false};
  std::atomic<int> churned{0};
  std::thread churn([&] {
    const auto live = tree.path("sys/fs/cgroup/kubepods");
    for (int i = 0; !stop.load(); ++i) {
      const std::string name = "pod" + std::to_string(i % 8);
      tree.make_file("staging/" + name + "/memory.numa_stat", "anon N0=5242880\nfile N0=4096\n");
      std::error_code error;
      std::filesystem::rename(tree.path("staging/" + name), live / name, error);
      std::filesystem::rename(live / name, tree.path("staging/gone"), error);
      std::filesystem::remove_all(tree.path("staging/gone"), error);
      churned.fetch_add(1);
    }
  });

  host::HostScanner scanner(tree.root(), config);
  int scans = 0;
  for (; scans < 5000 && (scans < 300 || churned.load() < 100); ++scans) {
    auto document = scanner.scan(kNow);
    ASSERT_TRUE(document.ok()) << document.error().message();
    bool stable_seen = false;
    for (const auto& container : document->snapshot.containers) {
      if (container.id == "kubepods/stable") {
        stable_seen = true;
        EXPECT_EQ(container.anon_bytes, (std::map<NodeId, Bytes>{{0, 3 * kMiB}, {1, kMiB}}));
      } else {
        EXPECT_EQ(container.anon_bytes, (std::map<NodeId, Bytes>{{0, 5 * kMiB}})) << container.id;
      }
    }
    EXPECT_TRUE(stable_seen) << "scan " << scans;
    if (::testing::Test::HasFailure()) {
      break;
    }
  }
  stop = true;
  churn.join();
  EXPECT_GT(churned.load(), 0);
}

}  // namespace
}  // namespace nb::reliability
