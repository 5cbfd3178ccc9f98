#include "daemon/metrics/perf_provider.hpp"

#include <gtest/gtest.h>

#include "daemon/metrics/source.hpp"
#include "tests/daemon/metrics/fake_clock.hpp"
#include "tests/daemon/metrics/fake_perf_events.hpp"
#include "tests/daemon/metrics/topology.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::metrics {
namespace {

using namespace std::chrono_literals;
using testing::FakeClock;
using testing::FakeCounterKey;
using testing::FakePerfEvents;
using testing::FakePerfScript;

constexpr std::uint64_t kSecond = 1'000'000'000;
// Encodings the fixture's sysfs gives, as the provider must compute them from format/.
constexpr std::uint64_t kCasRead = 0x0304;
constexpr std::uint64_t kCasWrite = 0x0c04;
constexpr std::uint64_t kClockticks = 0xff;
constexpr std::uint64_t kRpqOccupancy = 0x80;
constexpr std::uint64_t kRpqInserts = 0x10;

// Two sockets (nodes 0 and 1, CPUs 0-3 and 4-7), two Intel memory controllers whose cpumask
// holds one CPU per socket.
class PerfProviderTest : public ::testing::Test {
 protected:
  PerfProviderTest() {
    add_intel_imc("uncore_imc_0", 20, true);
    add_intel_imc("uncore_imc_1", 21, true);
  }

  void add_intel_imc(const std::string& name, int type, bool with_read_queue) {
    std::string dir = "sys/bus/event_source/devices/" + name + "/";
    tree_.make_file(dir + "type", std::to_string(type) + "\n");
    tree_.make_file(dir + "cpumask", "0,4\n");
    tree_.make_file(dir + "format/event", "config:0-7\n");
    tree_.make_file(dir + "format/umask", "config:8-15\n");
    tree_.make_file(dir + "events/cas_count_read", "event=0x04,umask=0x03\n");
    tree_.make_file(dir + "events/cas_count_read.scale", "6.103515625e-5\n");
    tree_.make_file(dir + "events/cas_count_read.unit", "MiB\n");
    tree_.make_file(dir + "events/cas_count_write", "event=0x04,umask=0x0c\n");
    tree_.make_file(dir + "events/clockticks", "event=0xff\n");
    if (with_read_queue) {
      tree_.make_file(dir + "events/unc_m_rpq_occupancy", "event=0x80\n");
      tree_.make_file(dir + "events/unc_m_rpq_inserts", "event=0x10\n");
    }
  }

  // A counter that reads `before` and then `before + advance`, enabled and running for 1 s.
  void script(std::uint32_t type, std::uint64_t config, int cpu, std::uint64_t advance,
              std::uint64_t before = 1000) {
    script_.counts[FakeCounterKey{type, config, cpu}] = {
        PerfCount{before, kSecond, kSecond}, PerfCount{before + advance, 2 * kSecond, 2 * kSecond}};
  }

  std::unique_ptr<PerfProvider> provider(Metric metric, config::PerfProviderConfig config = {}) {
    return std::make_unique<PerfProvider>(
        metric, tree_.root(),
        std::vector<core::Node>{testing::node(0, "0-3"), testing::node(1, "4-7")}, config,
        std::make_unique<FakePerfEvents>(script_), clock_);
  }

  nb::testing::TempTree tree_;
  FakePerfScript script_;
  FakeClock clock_;
};

TEST_F(PerfProviderTest, BandwidthAddsReadsAndWritesOfEveryControllerOnTheNode) {
  script(20, kCasRead, 0, 100'000'000);  // 6.4 GB
  script(20, kCasWrite, 0, 50'000'000);  // 3.2 GB
  script(21, kCasRead, 0, 100'000'000);  // 6.4 GB
  script(21, kCasWrite, 0, 0);
  script(20, kCasRead, 4, 25'000'000);  // 1.6 GB
  script(20, kCasWrite, 4, 0);
  script(21, kCasRead, 4, 0);
  script(21, kCasWrite, 4, 0);

  auto values = provider(Metric::bandwidth)->read(TimePoint{});

  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 16.0);
  EXPECT_DOUBLE_EQ(values->at(1), 1.6);
  EXPECT_EQ(clock_.sleeps, (std::vector<std::chrono::nanoseconds>{1s}));
}

TEST_F(PerfProviderTest, EventsAreEncodedFromSysfsAndOpenedOnEachCpumaskCpu) {
  for (std::uint32_t type : {20U, 21U}) {
    for (int cpu : {0, 4}) {
      script(type, kCasRead, cpu, 1);
      script(type, kCasWrite, cpu, 1);
    }
  }
  ASSERT_TRUE(provider(Metric::bandwidth)->read(TimePoint{}).ok());
  std::set<std::tuple<std::uint32_t, std::uint64_t, int>> opened;
  for (const auto& spec : script_.opened) {
    opened.emplace(spec.type, spec.config.config, spec.cpu);
  }
  EXPECT_EQ(opened, (std::set<std::tuple<std::uint32_t, std::uint64_t, int>>{{20, kCasRead, 0},
                                                                             {20, kCasRead, 4},
                                                                             {20, kCasWrite, 0},
                                                                             {20, kCasWrite, 4},
                                                                             {21, kCasRead, 0},
                                                                             {21, kCasRead, 4},
                                                                             {21, kCasWrite, 0},
                                                                             {21, kCasWrite, 4}}));
}

TEST_F(PerfProviderTest, MultiplexedCountsAreScaledAndRatesUseEnabledTime) {
  for (std::uint32_t type : {20U, 21U}) {
    for (int cpu : {0, 4}) {
      script(type, kCasRead, cpu, 0);
      script(type, kCasWrite, cpu, 0);
    }
  }
  // Counted half of the 2 s it was enabled: 1.6 GB seen, 3.2 GB scaled, over 2 s.
  script_.counts[FakeCounterKey{20, kCasRead, 0}] = {
      PerfCount{0, kSecond, kSecond}, PerfCount{25'000'000, 3 * kSecond, 2 * kSecond}};
  script_.counts[FakeCounterKey{20, kCasRead, 0}][0].time_running_ns = kSecond;

  auto values = provider(Metric::bandwidth)->read(TimePoint{});

  ASSERT_TRUE(values.ok()) << values.error().message();
  // before: 0 scaled; after: 25e6 x 3/2 = 37.5e6 counts = 2.4 GB over 2 s
  EXPECT_DOUBLE_EQ(values->at(0), 1.2);
}

TEST_F(PerfProviderTest, LatencyIsQueueOccupancyOverInsertsInUncoreClockNanoseconds) {
  // Node 0: controller 0 waits 40 cycles per read, controller 1 waits 20, equal inserts, clock
  // 1.2 GHz: (4e6 + 2e6 cycles) / 1.2 per ns / 2e5 reads = 25 ns.
  script(20, kRpqOccupancy, 0, 4'000'000);
  script(20, kRpqInserts, 0, 100'000);
  script(20, kClockticks, 0, 1'200'000'000);
  script(21, kRpqOccupancy, 0, 2'000'000);
  script(21, kRpqInserts, 0, 100'000);
  script(21, kClockticks, 0, 1'200'000'000);
  // Node 1 saw no read: it has no latency, not a zero one.
  for (std::uint32_t type : {20U, 21U}) {
    script(type, kRpqOccupancy, 4, 0);
    script(type, kRpqInserts, 4, 0);
    script(type, kClockticks, 4, 1'200'000'000);
  }

  auto perf = provider(Metric::read_latency);
  auto values = perf->read(TimePoint{});

  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_NEAR(values->at(0), 25.0, 1e-9);
  EXPECT_FALSE(values->contains(1));
  EXPECT_EQ(perf->latency_kind(), LatencyKind::memory_controller_queue);
}

TEST_F(PerfProviderTest, LatencyEventsMissingFromSysfsAreNamedWithTheOptionToSet) {
  tree_.remove("sys/bus/event_source/devices/uncore_imc_0/events/unc_m_rpq_occupancy");
  auto values = provider(Metric::read_latency)->read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("uncore_imc_0"), std::string::npos);
  EXPECT_NE(values.error().context.find("unc_m_rpq_occupancy"), std::string::npos);
  EXPECT_NE(values.error().context.find("queue_occupancy_event"), std::string::npos);
}

TEST_F(PerfProviderTest, ConfiguredEncodingsStandInForEventsSysfsLacks) {
  tree_.remove("sys/bus/event_source/devices/uncore_imc_0/events/unc_m_rpq_occupancy");
  tree_.remove("sys/bus/event_source/devices/uncore_imc_1/events/unc_m_rpq_occupancy");
  config::PerfProviderConfig config;
  config.queue_occupancy_event = "event=0x81,umask=0x01";
  constexpr std::uint64_t kConfigured = 0x0181;
  for (std::uint32_t type : {20U, 21U}) {
    for (int cpu : {0, 4}) {
      script(type, kConfigured, cpu, 3'000'000);
      script(type, kRpqInserts, cpu, 100'000);
      script(type, kClockticks, cpu, 1'000'000'000);
    }
  }
  auto values = provider(Metric::read_latency, config)->read(TimePoint{});
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 30.0);
  EXPECT_DOUBLE_EQ(values->at(1), 30.0);
}

TEST_F(PerfProviderTest, AmdControllersWithoutSysfsEventsUseConfiguredEncodings) {
  tree_.remove("sys/bus/event_source/devices");
  std::string dir = "sys/bus/event_source/devices/amd_umc_0/";
  tree_.make_file(dir + "type", "30\n");
  tree_.make_file(dir + "cpumask", "0,4\n");
  tree_.make_file(dir + "format/event", "config:0-7\n");
  tree_.make_file(dir + "format/rdwrmask", "config:8-9\n");
  config::PerfProviderConfig config;
  config.read_event = "event=0x0a,rdwrmask=0x1";
  config.write_event = "event=0x0a,rdwrmask=0x2";
  script(30, 0x10a, 0, 156'250'000);  // 10 GB of 64-byte reads
  script(30, 0x20a, 0, 0);
  script(30, 0x10a, 4, 15'625'000);
  script(30, 0x20a, 4, 15'625'000);

  auto values = provider(Metric::bandwidth, config)->read(TimePoint{});

  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 10.0);
  EXPECT_DOUBLE_EQ(values->at(1), 2.0);
}

TEST_F(PerfProviderTest, AmdControllersWithoutEncodingsSayWhichOptionIsMissing) {
  tree_.remove("sys/bus/event_source/devices");
  std::string dir = "sys/bus/event_source/devices/amd_umc_0/";
  tree_.make_file(dir + "type", "30\n");
  tree_.make_file(dir + "cpumask", "0\n");
  tree_.make_file(dir + "format/event", "config:0-7\n");
  auto values = provider(Metric::bandwidth)->read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("read_event"), std::string::npos) << values.error().context;
}

TEST_F(PerfProviderTest, NoMemoryControllerPmuMeansUnavailable) {
  tree_.remove("sys/bus/event_source/devices");
  tree_.make_dir("sys/bus/event_source/devices/cpu");
  tree_.make_dir("sys/bus/event_source/devices/software");
  auto values = provider(Metric::bandwidth)->read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("no memory-controller PMU"), std::string::npos);
  EXPECT_TRUE(script_.opened.empty());
}

TEST_F(PerfProviderTest, PermissionDeniedNamesTheEventAndClosesWhatWasOpened) {
  script(20, kCasRead, 0, 1);
  script_.open_errors[FakeCounterKey{20, kCasWrite, 4}] = EACCES;
  auto values = provider(Metric::bandwidth)->read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_EQ(values.error().code, EACCES);
  EXPECT_NE(values.error().message().find("uncore_imc_0/cas_count_write"), std::string::npos);
  EXPECT_NE(values.error().message().find("Permission denied"), std::string::npos);
  EXPECT_FALSE(script_.opened.empty());
  EXPECT_EQ(script_.open_handles, 0);
}

TEST_F(PerfProviderTest, CpumaskCpuOutsideTheTopologyIsAnError) {
  tree_.make_file("sys/bus/event_source/devices/uncore_imc_1/cpumask", "0,64\n");
  auto values = provider(Metric::bandwidth)->read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("cpu 64 in uncore_imc_1/cpumask"), std::string::npos);
}

TEST_F(PerfProviderTest, GarbageFormatFileIsAnErrorNamingIt) {
  tree_.make_file("sys/bus/event_source/devices/uncore_imc_0/format/umask", "config:lots\n");
  auto values = provider(Metric::bandwidth)->read(TimePoint{});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("uncore_imc_0/format/umask"), std::string::npos);
}

TEST_F(PerfProviderTest, LaterReadsUseTheSpanSinceThePreviousReadAndWaitOutAShortOne) {
  for (std::uint32_t type : {20U, 21U}) {
    for (int cpu : {0, 4}) {
      for (auto config : {kCasRead, kCasWrite}) {
        script_.counts[FakeCounterKey{type, config, cpu}] = {
            PerfCount{0, kSecond, kSecond}, PerfCount{15'625'000, 2 * kSecond, 2 * kSecond},
            PerfCount{15'625'000 + 62'500'000, 6 * kSecond, 6 * kSecond}};
      }
    }
  }
  auto perf = provider(Metric::bandwidth);
  ASSERT_TRUE(perf->read(TimePoint{}).ok());
  clock_.advance(400ms);

  auto second = perf->read(TimePoint{});

  ASSERT_TRUE(second.ok()) << second.error().message();
  // 4 counters x 62.5e6 x 64 B over the counters' 4 s: 4 GB/s per node.
  EXPECT_DOUBLE_EQ(second->at(0), 4.0);
  EXPECT_EQ(clock_.sleeps, (std::vector<std::chrono::nanoseconds>{1s, 600ms}));
}

TEST_F(PerfProviderTest, CounterThatWentBackwardsLeavesItsNodeOut) {
  for (std::uint32_t type : {20U, 21U}) {
    for (int cpu : {0, 4}) {
      script(type, kCasRead, cpu, 15'625'000);
      script(type, kCasWrite, cpu, 0);
    }
  }
  script_.counts[FakeCounterKey{21, kCasWrite, 4}] = {PerfCount{500, kSecond, kSecond},
                                                      PerfCount{100, 2 * kSecond, 2 * kSecond}};
  auto values = provider(Metric::bandwidth)->read(TimePoint{});
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 2.0);
  EXPECT_FALSE(values->contains(1));
}

TEST_F(PerfProviderTest, FailedReadClosesTheCountersAndTheNextReadReopensThem) {
  auto perf = provider(Metric::bandwidth);  // nothing scripted: every read fails with ENODEV
  auto failed = perf->read(TimePoint{});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, ENODEV);
  EXPECT_EQ(script_.open_handles, 0);

  for (std::uint32_t type : {20U, 21U}) {
    for (int cpu : {0, 4}) {
      script(type, kCasRead, cpu, 15'625'000);
      script(type, kCasWrite, cpu, 15'625'000);
    }
  }
  auto values = perf->read(TimePoint{});
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 4.0);
}

TEST_F(PerfProviderTest, AllZeroCountsAreNotAMeasurement) {
  for (std::uint32_t type : {20U, 21U}) {
    for (int cpu : {0, 4}) {
      script(type, kCasRead, cpu, 0);
      script(type, kCasWrite, cpu, 0);
    }
  }
  std::vector<std::unique_ptr<Provider>> chain;
  chain.push_back(provider(Metric::bandwidth));
  MetricSource source(Metric::bandwidth, std::move(chain), {0, 1}, "");

  auto reading = source.read(TimePoint{});

  EXPECT_FALSE(reading.available());
  EXPECT_TRUE(reading.provider.empty());
  EXPECT_NE(reading.unavailable_reason.find("perf:"), std::string::npos);
}

}  // namespace
}  // namespace nb::metrics
