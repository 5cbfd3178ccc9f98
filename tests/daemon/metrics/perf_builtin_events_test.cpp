// The perf provider's read-queue latency on hosts whose sysfs lists no read-queue events: a
// proc/cpuinfo and an uncore_imc sysfs tree per CPU of the built-in table, an unknown model and
// an AMD host. The expected config words are the table's encodings run through the fixture's
// format/ files (event: bits 0-7, umask: bits 8-15), written out here independently.

#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <tuple>

#include "daemon/metrics/perf_provider.hpp"
#include "daemon/metrics/source.hpp"
#include "daemon/metrics/uncore_events.hpp"
#include "tests/daemon/metrics/fake_clock.hpp"
#include "tests/daemon/metrics/fake_perf_events.hpp"
#include "tests/daemon/metrics/topology.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::metrics {
namespace {

using testing::FakeClock;
using testing::FakeCounterKey;
using testing::FakePerfEvents;
using testing::FakePerfScript;

constexpr std::uint64_t kSecond = 1'000'000'000;
constexpr std::uint32_t kImcTypes[] = {20, 21};
constexpr int kCpumaskCpus[] = {0, 4};

std::string cpuinfo(std::string_view vendor, unsigned family, unsigned model) {
  std::string text;
  for (int cpu = 0; cpu < 2; ++cpu) {
    text += "processor\t: " + std::to_string(cpu) + "\nvendor_id\t: " + std::string(vendor) +
            "\ncpu family\t: " + std::to_string(family) + "\nmodel\t\t: " + std::to_string(model) +
            "\nmodel name\t: a server CPU\n\n";
  }
  return text;
}

// Two sockets (nodes 0 and 1, CPUs 0-3 and 4-7); a stock kernel's uncore_imc PMUs, whose sysfs
// lists the CAS counts only (no read-queue events, and here no clockticks either, so that all
// three latency events come from the table).
class PerfBuiltinEventsTest : public ::testing::Test {
 protected:
  void add_stock_intel_imcs() {
    for (std::uint32_t type : kImcTypes) {
      std::string dir =
          "sys/bus/event_source/devices/uncore_imc_" + std::to_string(type - 20) + "/";
      tree_.make_file(dir + "type", std::to_string(type) + "\n");
      tree_.make_file(dir + "cpumask", "0,4\n");
      tree_.make_file(dir + "format/event", "config:0-7\n");
      tree_.make_file(dir + "format/umask", "config:8-15\n");
      tree_.make_file(dir + "events/cas_count_read", "event=0x04,umask=0x03\n");
      tree_.make_file(dir + "events/cas_count_write", "event=0x04,umask=0x0c\n");
    }
  }

  // Every controller on every socket: 40 cycles per read at a 1 GHz clock, i.e. 40 ns.
  void script_latency(std::uint64_t occupancy, std::uint64_t inserts, std::uint64_t clock) {
    for (std::uint32_t type : kImcTypes) {
      for (int cpu : kCpumaskCpus) {
        script(type, occupancy, cpu, 4'000'000);
        script(type, inserts, cpu, 100'000);
        script(type, clock, cpu, 1'000'000'000);
      }
    }
  }

  void script(std::uint32_t type, std::uint64_t config, int cpu, std::uint64_t advance) {
    script_.counts[FakeCounterKey{type, config, cpu}] = {
        PerfCount{1000, kSecond, kSecond}, PerfCount{1000 + advance, 2 * kSecond, 2 * kSecond}};
  }

  Result<NodeValues> read_latency(config::PerfProviderConfig config = {}) {
    PerfProvider provider(Metric::read_latency, tree_.root(),
                          {testing::node(0, "0-3"), testing::node(1, "4-7")}, config,
                          std::make_unique<FakePerfEvents>(script_), clock_);
    return provider.read(TimePoint{});
  }

  std::set<std::uint64_t> opened_configs() const {
    std::set<std::uint64_t> configs;
    for (const auto& spec : script_.opened) {
      configs.insert(spec.config.config);
    }
    return configs;
  }

  nb::testing::TempTree tree_;
  FakePerfScript script_;
  FakeClock clock_;
};

struct TableCpu {
  std::string_view name;
  unsigned model;
  std::uint64_t occupancy, inserts, clock;
};

void PrintTo(const TableCpu& cpu, std::ostream* out) {
  *out << cpu.name << " (model " << cpu.model << ")";
}

// Stands in for the probe that `latency = "auto"` tries after perf.
class AnsweringProbe final : public Provider {
 public:
  std::string_view name() const override { return "probe"; }
  Metric metric() const override { return Metric::read_latency; }
  std::optional<LatencyKind> latency_kind() const override { return LatencyKind::load_to_use; }
  Result<NodeValues> read(TimePoint) override { return NodeValues{{0, 110}, {1, 150}}; }
};

class EachTableCpu : public PerfBuiltinEventsTest,
                     public ::testing::WithParamInterface<TableCpu> {};

TEST_P(EachTableCpu, MeasuresQueueLatencyWithTheTablesEncodings) {
  const TableCpu& cpu = GetParam();
  tree_.make_file("proc/cpuinfo", cpuinfo("GenuineIntel", 6, cpu.model));
  add_stock_intel_imcs();
  script_latency(cpu.occupancy, cpu.inserts, cpu.clock);

  auto values = read_latency();

  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 40.0);
  EXPECT_DOUBLE_EQ(values->at(1), 40.0);
  EXPECT_EQ(opened_configs(), (std::set<std::uint64_t>{cpu.occupancy, cpu.inserts, cpu.clock}));
  EXPECT_EQ(script_.opened.size(), 3U * 2 * 2);  // three events x two PMUs x two cpumask CPUs
  const auto* entry = builtin_read_queue_events(CpuId{"GenuineIntel", 6, cpu.model});
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->cpu, cpu.name);
}

INSTANTIATE_TEST_SUITE_P(
    PerfBuiltinEventsTest, EachTableCpu,
    ::testing::Values(TableCpu{"Skylake-SP/Cascade Lake", 0x55, 0x80, 0x10, 0x00},
                      TableCpu{"Ice Lake-SP", 0x6a, 0x80, 0x0110, 0x00},
                      TableCpu{"Ice Lake-SP", 0x6c, 0x80, 0x0110, 0x00},
                      TableCpu{"Sapphire Rapids", 0x8f, 0x80, 0x0110, 0x0101},
                      TableCpu{"Emerald Rapids", 0xcf, 0x80, 0x0110, 0x0101},
                      TableCpu{"Granite Rapids", 0xad, 0x80, 0x1010, 0x0101},
                      TableCpu{"Granite Rapids", 0xae, 0x80, 0x1010, 0x0101}),
    [](const auto& info) { return "model_" + std::to_string(info.param.model); });

TEST_F(PerfBuiltinEventsTest, ConfiguredEncodingsOverrideTheTable) {
  tree_.make_file("proc/cpuinfo", cpuinfo("GenuineIntel", 6, 0x8f));
  add_stock_intel_imcs();
  config::PerfProviderConfig config;
  config.queue_occupancy_event = "event=0x81";  // pseudo-channel 1's queue
  config.queue_inserts_event = "event=0x10,umask=0x02";
  config.clock_event = "event=0x01";
  script_latency(0x81, 0x0210, 0x01);

  auto values = read_latency(config);

  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_EQ(opened_configs(), (std::set<std::uint64_t>{0x81, 0x0210, 0x01}));
}

TEST_F(PerfBuiltinEventsTest, EventsSysfsListsComeBeforeTheTable) {
  tree_.make_file("proc/cpuinfo", cpuinfo("GenuineIntel", 6, 0x55));
  add_stock_intel_imcs();
  for (std::uint32_t type : kImcTypes) {
    tree_.make_file("sys/bus/event_source/devices/uncore_imc_" + std::to_string(type - 20) +
                        "/events/clockticks",
                    "event=0xff\n");
  }
  script_latency(0x80, 0x10, 0xff);

  auto values = read_latency();

  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_EQ(opened_configs(), (std::set<std::uint64_t>{0x80, 0x10, 0xff}));
}

TEST_F(PerfBuiltinEventsTest, UnknownIntelCpuIsNamedWithTheOptionToSet) {
  struct Case {
    unsigned family, model;
    std::string_view described;
  };
  for (const Case& c : {Case{6, 0x99, "GenuineIntel family 6 model 153 (0x99)"},
                        Case{6, 0x8e, "GenuineIntel family 6 model 142 (0x8e)"},  // a laptop
                        Case{19, 0x01, "GenuineIntel family 19 model 1 (0x1)"}}) {
    tree_.make_file("proc/cpuinfo", cpuinfo("GenuineIntel", c.family, c.model));
    add_stock_intel_imcs();
    script_ = {};

    auto values = read_latency();

    ASSERT_FALSE(values.ok()) << c.described;
    const std::string& reason = values.error().context;
    EXPECT_NE(reason.find(c.described), std::string::npos) << reason;
    EXPECT_NE(reason.find("no built-in encoding"), std::string::npos) << reason;
    EXPECT_NE(reason.find("Granite Rapids"), std::string::npos) << reason;
    EXPECT_NE(reason.find("queue_occupancy_event"), std::string::npos) << reason;
    EXPECT_EQ(script_.open_handles, 0);
  }
}

TEST_F(PerfBuiltinEventsTest, AmdUmcSaysItHasNoReadQueueOccupancy) {
  tree_.make_file("proc/cpuinfo", cpuinfo("AuthenticAMD", 25, 0x11));
  std::string dir = "sys/bus/event_source/devices/amd_umc_0/";
  tree_.make_file(dir + "type", "30\n");
  tree_.make_file(dir + "cpumask", "0,4\n");
  tree_.make_file(dir + "format/event", "config:0-7\n");

  auto values = read_latency();

  ASSERT_FALSE(values.ok());
  const std::string& reason = values.error().context;
  EXPECT_NE(reason.find("amd_umc_0: AMD's UMC"), std::string::npos) << reason;
  EXPECT_NE(reason.find("no read-queue occupancy"), std::string::npos) << reason;
  EXPECT_NE(reason.find("AuthenticAMD family 25 model 17 (0x11)"), std::string::npos) << reason;
  EXPECT_TRUE(script_.opened.empty());
  EXPECT_EQ(builtin_read_queue_events(CpuId{"AuthenticAMD", 25, 0x11}), nullptr);
}

TEST_F(PerfBuiltinEventsTest, AmdWithoutAUmcPmuStillSaysTheUmcHasNoReadQueueOccupancy) {
  tree_.make_file("proc/cpuinfo", cpuinfo("AuthenticAMD", 25, 0x01));
  tree_.make_dir("sys/bus/event_source/devices/cpu");

  auto values = read_latency();

  ASSERT_FALSE(values.ok());
  const std::string& reason = values.error().context;
  EXPECT_NE(reason.find("no memory-controller PMU"), std::string::npos) << reason;
  EXPECT_NE(reason.find("on AMD (AuthenticAMD family 25 model 1 (0x1)) the UMC PMU counts no "
                        "read-queue occupancy"),
            std::string::npos)
      << reason;
}

TEST_F(PerfBuiltinEventsTest, AutoFallsBackFromAmdToTheProbeAndKeepsPerfsReason) {
  tree_.make_file("proc/cpuinfo", cpuinfo("AuthenticAMD", 25, 0x11));
  std::string dir = "sys/bus/event_source/devices/amd_umc_0/";
  tree_.make_file(dir + "type", "30\n");
  tree_.make_file(dir + "cpumask", "0,4\n");
  tree_.make_file(dir + "format/event", "config:0-7\n");
  std::vector<std::unique_ptr<Provider>> chain;
  chain.push_back(std::make_unique<PerfProvider>(
      Metric::read_latency, tree_.root(),
      std::vector<core::Node>{testing::node(0, "0-3"), testing::node(1, "4-7")},
      config::PerfProviderConfig{}, std::make_unique<FakePerfEvents>(script_), clock_));
  chain.push_back(std::make_unique<AnsweringProbe>());
  MetricSource source(Metric::read_latency, std::move(chain), {0, 1}, "");

  auto reading = source.read(TimePoint{});

  ASSERT_TRUE(reading.available()) << reading.unavailable_reason;
  EXPECT_EQ(reading.provider, "probe");
  EXPECT_EQ(reading.kind, LatencyKind::load_to_use);
  EXPECT_EQ(reading.unavailable_reason.rfind("perf: amd_umc_0: AMD's UMC", 0), 0U)
      << reading.unavailable_reason;
}

TEST_F(PerfBuiltinEventsTest, WithoutCpuinfoTheTableIsNotUsedAndTheReasonSaysWhy) {
  add_stock_intel_imcs();
  auto values = read_latency();
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("proc/cpuinfo"), std::string::npos)
      << values.error().context;
  EXPECT_TRUE(script_.opened.empty());
}

}  // namespace
}  // namespace nb::metrics
