#include "daemon/metrics/resctrl_provider.hpp"

#include <gtest/gtest.h>

#include "tests/daemon/metrics/fake_clock.hpp"
#include "tests/daemon/metrics/topology.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::metrics {
namespace {

using namespace std::chrono_literals;
using testing::FakeClock;

constexpr double kGB = 1e9;

// CPUs 2n and 2n+1 on node n, sharing the L3 cache with id n.
class ResctrlProviderTest : public ::testing::Test {
 protected:
  void add_cpus(int nodes) {
    for (int cpu = 0; cpu < 2 * nodes; ++cpu) {
      std::string dir = "sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cache/";
      tree_.make_file(dir + "index0/level", "1\n");
      tree_.make_file(dir + "index0/id", std::to_string(cpu) + "\n");
      tree_.make_file(dir + "index3/level", "3\n");
      tree_.make_file(dir + "index3/id", std::to_string(cpu / 2) + "\n");
    }
    for (int n = 0; n < nodes; ++n) {
      topology_.push_back(
          testing::node(n, std::to_string(2 * n) + "-" + std::to_string(2 * n + 1)));
    }
  }

  void counters(int domain, double total, double local, const std::string& group = "") {
    char name[32];
    std::snprintf(name, sizeof name, "mon_L3_%02d", domain);
    std::string dir = "sys/fs/resctrl/" + (group.empty() ? "" : group + "/") + "mon_data/" + name;
    tree_.make_file(dir + "/mbm_total_bytes", std::to_string(static_cast<std::uint64_t>(total)));
    tree_.make_file(dir + "/mbm_local_bytes", std::to_string(static_cast<std::uint64_t>(local)));
  }

  ResctrlProvider provider() {
    config::ResctrlProviderConfig config;
    config.window = 1s;
    return ResctrlProvider(tree_.root(), topology_, config, clock_);
  }

  nb::testing::TempTree tree_;
  std::vector<core::Node> topology_;
  FakeClock clock_;
};

TEST_F(ResctrlProviderTest, TwoNodesServedBandwidthIsLocalPlusTheOtherNodesRemote) {
  add_cpus(2);
  counters(0, 0, 0);
  counters(1, 0, 0);
  clock_.on_sleep = [this] {
    counters(0, 10 * kGB, 8 * kGB);  // node 0 issues 8 GB locally, 2 GB to node 1
    counters(1, 4 * kGB, 3 * kGB);   // node 1 issues 3 GB locally, 1 GB to node 0
  };
  auto resctrl = provider();

  auto values = resctrl.read(TimePoint{});

  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 9.0);
  EXPECT_DOUBLE_EQ(values->at(1), 5.0);
  EXPECT_EQ(clock_.sleeps, (std::vector<std::chrono::nanoseconds>{1s}));
  EXPECT_EQ(resctrl.metric(), Metric::bandwidth);
}

TEST_F(ResctrlProviderTest, MoreNodesSplitRemoteTrafficEvenly) {
  add_cpus(3);
  for (int domain = 0; domain < 3; ++domain) {
    counters(domain, 0, 0);
  }
  clock_.on_sleep = [this] {
    counters(0, 6 * kGB, 2 * kGB);  // 4 GB remote: 2 to each other node
    counters(1, 1 * kGB, 1 * kGB);
    counters(2, 3 * kGB, 1 * kGB);  // 2 GB remote: 1 to each other node
  };
  auto values = provider().read(TimePoint{});
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 2 + 1);
  EXPECT_DOUBLE_EQ(values->at(1), 1 + 2 + 1);
  EXPECT_DOUBLE_EQ(values->at(2), 1 + 2);
}

TEST_F(ResctrlProviderTest, MemoryOnlyNodeServesTheRemoteTrafficOfTheCpuNode) {
  add_cpus(1);
  topology_.push_back(testing::node(1, ""));
  counters(0, 0, 0);
  clock_.on_sleep = [this] { counters(0, 5 * kGB, 3 * kGB); };
  auto values = provider().read(TimePoint{});
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 3.0);
  EXPECT_DOUBLE_EQ(values->at(1), 2.0);
}

TEST_F(ResctrlProviderTest, CountersOfEveryControlGroupAddUp) {
  add_cpus(1);
  counters(0, 0, 0);
  counters(0, 0, 0, "batch");
  tree_.make_file("sys/fs/resctrl/batch/schemata", "MB:0=100\n");
  tree_.make_dir("sys/fs/resctrl/info/L3_MON");
  clock_.on_sleep = [this] {
    counters(0, 1 * kGB, 1 * kGB);
    counters(0, 2 * kGB, 2 * kGB, "batch");
  };
  auto values = provider().read(TimePoint{});
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 3.0);
}

TEST_F(ResctrlProviderTest, WithoutLocalCountersServedIsTotal) {
  add_cpus(2);
  counters(0, 0, 0);
  counters(1, 0, 0);
  tree_.remove("sys/fs/resctrl/mon_data/mon_L3_00/mbm_local_bytes");
  tree_.remove("sys/fs/resctrl/mon_data/mon_L3_01/mbm_local_bytes");
  clock_.on_sleep = [this] {
    tree_.make_file("sys/fs/resctrl/mon_data/mon_L3_00/mbm_total_bytes", "7000000000");
    tree_.make_file("sys/fs/resctrl/mon_data/mon_L3_01/mbm_total_bytes", "1000000000");
  };
  auto values = provider().read(TimePoint{});
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 7.0);
  EXPECT_DOUBLE_EQ(values->at(1), 1.0);
}

TEST_F(ResctrlProviderTest, LaterReadsWaitOnlyForTheRestOfTheWindow) {
  add_cpus(1);
  counters(0, 0, 0);
  clock_.on_sleep = [this] { counters(0, 2 * kGB, 2 * kGB); };
  auto resctrl = provider();
  ASSERT_TRUE(resctrl.read(TimePoint{}).ok());
  clock_.advance(250ms);
  clock_.on_sleep = [this] { counters(0, 5 * kGB, 5 * kGB); };  // 3 GB over 1 s
  auto values = resctrl.read(TimePoint{});
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 3.0);
  EXPECT_EQ(clock_.sleeps, (std::vector<std::chrono::nanoseconds>{1s, 750ms}));
}

TEST_F(ResctrlProviderTest, UnavailableCounterMakesTheReadUnavailableNamingTheDomain) {
  add_cpus(2);
  counters(0, 0, 0);
  counters(1, 0, 0);
  clock_.on_sleep = [this] {
    counters(0, 1 * kGB, 1 * kGB);
    tree_.make_file("sys/fs/resctrl/mon_data/mon_L3_01/mbm_total_bytes", "Unavailable\n");
  };
  auto values = provider().read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("L3 domain 1"), std::string::npos);
  EXPECT_NE(values.error().context.find("Unavailable"), std::string::npos);
}

TEST_F(ResctrlProviderTest, CounterThatWentBackwardsIsUnavailableThenTheNewBaseline) {
  add_cpus(1);
  counters(0, 9 * kGB, 9 * kGB);
  clock_.on_sleep = [this] { counters(0, 1 * kGB, 1 * kGB); };
  auto resctrl = provider();
  auto wrapped = resctrl.read(TimePoint{});
  ASSERT_FALSE(wrapped.ok());
  EXPECT_NE(wrapped.error().context.find("went backwards"), std::string::npos);

  clock_.on_sleep = [this] { counters(0, 3 * kGB, 3 * kGB); };
  auto values = resctrl.read(TimePoint{});
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 2.0);
}

TEST_F(ResctrlProviderTest, GroupAppearingBetweenReadsIsUnavailable) {
  add_cpus(1);
  counters(0, 0, 0);
  clock_.on_sleep = [this] {
    counters(0, 1 * kGB, 1 * kGB);
    counters(0, 0, 0, "new");
    tree_.make_file("sys/fs/resctrl/new/schemata", "MB:0=100\n");
  };
  auto values = provider().read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("groups changed"), std::string::npos);
}

TEST_F(ResctrlProviderTest, GarbageCounterIsUnavailableNamingTheFile) {
  add_cpus(1);
  counters(0, 0, 0);
  clock_.on_sleep = [this] {
    tree_.make_file("sys/fs/resctrl/mon_data/mon_L3_00/mbm_local_bytes", "lots\n");
  };
  auto values = provider().read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("mon_L3_00/mbm_local_bytes reads \"lots\""),
            std::string::npos)
      << values.error().context;
}

TEST_F(ResctrlProviderTest, MissingResctrlIsUnavailableWithTheReason) {
  add_cpus(1);
  auto values = provider().read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().message().find("resctrl not mounted"), std::string::npos);
  EXPECT_TRUE(clock_.sleeps.empty());
}

TEST_F(ResctrlProviderTest, MissingResctrlIsReportedEvenWithoutCacheInformation) {
  topology_ = {testing::node(0, "0-1")};  // a VM: no cache/ directories at all
  auto values = provider().read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("resctrl not mounted"), std::string::npos);
}

TEST_F(ResctrlProviderTest, DomainSpanningTwoNodesCannotBeAttributed) {
  add_cpus(2);
  tree_.make_file("sys/devices/system/cpu/cpu2/cache/index3/id", "0\n");
  counters(0, 0, 0);
  counters(1, 0, 0);
  auto values = provider().read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("L3 domain 0 spans nodes 0,1"), std::string::npos)
      << values.error().context;
}

TEST_F(ResctrlProviderTest, CpuWithoutL3CacheInformationIsUnavailable) {
  add_cpus(1);
  tree_.remove("sys/devices/system/cpu/cpu1/cache/index3");
  counters(0, 0, 0);
  auto values = provider().read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("no level-3 cache"), std::string::npos);
}

}  // namespace
}  // namespace nb::metrics
