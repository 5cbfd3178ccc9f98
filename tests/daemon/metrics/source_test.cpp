#include "daemon/metrics/source.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <stdexcept>

#include "tests/daemon/metrics/topology.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::metrics {
namespace {

// A provider whose reads return a script, one entry per read (the last one repeats).
class ScriptedProvider final : public Provider {
 public:
  ScriptedProvider(std::string name, std::optional<LatencyKind> kind,
                   std::vector<Result<NodeValues>> script, int* reads = nullptr)
      : name_(std::move(name)), kind_(kind), script_(std::move(script)), reads_(reads) {}

  std::string_view name() const override { return name_; }
  Metric metric() const override { return Metric::read_latency; }
  std::optional<LatencyKind> latency_kind() const override { return kind_; }
  Result<NodeValues> read(TimePoint) override {
    if (reads_ != nullptr) {
      ++*reads_;
    }
    auto index = std::min(next_++, script_.size() - 1);
    if (name_ == "thrower") {
      throw std::runtime_error("boom");
    }
    return script_[index];
  }

 private:
  std::string name_;
  std::optional<LatencyKind> kind_;
  std::vector<Result<NodeValues>> script_;
  int* reads_;
  std::size_t next_ = 0;
};

Error why(std::string text) {
  return make_error(0, std::move(text));
}

std::unique_ptr<MetricSource> source(std::vector<std::unique_ptr<Provider>> chain) {
  return std::make_unique<MetricSource>(Metric::read_latency, std::move(chain),
                                        std::vector<NodeId>{0, 1, 2, 4}, "");
}

TEST(MetricSource, FirstProviderThatAnswersIsUsedAndEarlierReasonsAreKept) {
  std::vector<std::unique_ptr<Provider>> chain;
  chain.push_back(
      std::make_unique<ScriptedProvider>("perf", LatencyKind::memory_controller_queue,
                                         std::vector<Result<NodeValues>>{why("no uncore PMU")}));
  chain.push_back(std::make_unique<ScriptedProvider>(
      "probe", LatencyKind::load_to_use,
      std::vector<Result<NodeValues>>{NodeValues{{0, 110}, {1, 150}}}));

  auto reading = source(std::move(chain))->read(TimePoint{});

  EXPECT_TRUE(reading.available());
  EXPECT_EQ(reading.values, (NodeValues{{0, 110}, {1, 150}}));
  EXPECT_EQ(reading.provider, "probe");
  EXPECT_EQ(reading.kind, LatencyKind::load_to_use);
  EXPECT_EQ(reading.unavailable_reason, "perf: no uncore PMU");
}

TEST(MetricSource, WhenNoProviderAnswersEveryReasonIsGivenInChainOrder) {
  std::vector<std::unique_ptr<Provider>> chain;
  chain.push_back(std::make_unique<ScriptedProvider>(
      "perf", std::nullopt, std::vector<Result<NodeValues>>{why("no uncore PMU")}));
  chain.push_back(std::make_unique<ScriptedProvider>(
      "resctrl", std::nullopt,
      std::vector<Result<NodeValues>>{make_error(ENOENT, "open /sys/fs/resctrl/mon_data")}));

  auto reading = source(std::move(chain))->read(TimePoint{});

  EXPECT_FALSE(reading.available());
  EXPECT_TRUE(reading.provider.empty());
  EXPECT_EQ(reading.unavailable_reason,
            "perf: no uncore PMU; resctrl: open /sys/fs/resctrl/mon_data: No such file or "
            "directory");
}

TEST(MetricSource, TheProviderThatAnsweredIsKeptEvenWhenItLaterFails) {
  int perf_reads = 0;
  std::vector<std::unique_ptr<Provider>> chain;
  chain.push_back(std::make_unique<ScriptedProvider>(
      "perf", LatencyKind::memory_controller_queue,
      std::vector<Result<NodeValues>>{NodeValues{{0, 70}}, why("counter read failed")},
      &perf_reads));
  int probe_reads = 0;
  chain.push_back(std::make_unique<ScriptedProvider>(
      "probe", LatencyKind::load_to_use, std::vector<Result<NodeValues>>{NodeValues{{0, 120}}},
      &probe_reads));
  auto metric = source(std::move(chain));

  auto first = metric->read(TimePoint{});
  auto second = metric->read(TimePoint{});

  EXPECT_EQ(first.provider, "perf");
  EXPECT_FALSE(second.available());
  EXPECT_EQ(second.unavailable_reason, "perf: counter read failed");
  EXPECT_EQ(second.kind, LatencyKind::memory_controller_queue);
  EXPECT_EQ(perf_reads, 2);
  EXPECT_EQ(probe_reads, 0);  // a different kind of latency must not slip in
}

TEST(MetricSource, ZerosAndUnknownNodesAreDropped) {
  std::vector<std::unique_ptr<Provider>> chain;
  chain.push_back(std::make_unique<ScriptedProvider>(
      "file", LatencyKind::external,
      std::vector<Result<NodeValues>>{
          NodeValues{{0, 0}, {1, 95}, {3, std::numeric_limits<double>::quiet_NaN()}, {5, -1}}}));
  auto reading = source(std::move(chain))->read(TimePoint{});
  EXPECT_EQ(reading.values, (NodeValues{{1, 95}}));
}

// A provider that reports -95 ns or NaN is broken: its other nodes' values are not trusted
// either, and the reason is the offline planner's for the same value in a snapshot file.
TEST(MetricSource, ANegativeOrNonFiniteValueMakesTheReadingUnavailableNamingNodeAndValue) {
  struct Case {
    double value;
    const char* reason;
  };
  const Case cases[] = {
      {-95, "file: node 2 read_latency_ns: must not be negative, got -95"},
      {std::numeric_limits<double>::quiet_NaN(),
       "file: node 2 read_latency_ns: must be a finite number, got NaN"},
      {std::numeric_limits<double>::infinity(),
       "file: node 2 read_latency_ns: must be a finite number, got +Inf"},
  };
  for (const Case& c : cases) {
    std::vector<std::unique_ptr<Provider>> chain;
    chain.push_back(std::make_unique<ScriptedProvider>(
        "file", LatencyKind::external,
        std::vector<Result<NodeValues>>{NodeValues{{0, 80}, {2, c.value}}}));
    auto reading = source(std::move(chain))->read(TimePoint{});
    EXPECT_FALSE(reading.available()) << c.reason;
    EXPECT_EQ(reading.unavailable_reason, c.reason);
  }
}

TEST(MetricSource, AllZeroValuesAreUnavailableNotAMeasurement) {
  std::vector<std::unique_ptr<Provider>> chain;
  chain.push_back(std::make_unique<ScriptedProvider>(
      "file", LatencyKind::external, std::vector<Result<NodeValues>>{NodeValues{{0, 0}, {1, 0}}}));
  auto reading = source(std::move(chain))->read(TimePoint{});
  EXPECT_FALSE(reading.available());
  EXPECT_NE(reading.unavailable_reason.find("file: no node of the topology has a positive value"),
            std::string::npos);
  EXPECT_EQ(reading.kind, LatencyKind::external);
}

TEST(MetricSource, AThrowingProviderIsUnavailableNotACrash) {
  std::vector<std::unique_ptr<Provider>> chain;
  chain.push_back(std::make_unique<ScriptedProvider>(
      "thrower", std::nullopt, std::vector<Result<NodeValues>>{NodeValues{{0, 1}}}));
  auto reading = source(std::move(chain))->read(TimePoint{});
  EXPECT_FALSE(reading.available());
  EXPECT_EQ(reading.unavailable_reason, "thrower: internal error: boom");
}

config::MetricsConfig metrics_config(std::string latency, std::string bandwidth) {
  config::MetricsConfig config;
  config.latency = std::move(latency);
  config.bandwidth = std::move(bandwidth);
  return config;
}

TEST(MetricSourceCreate, NoneIsDisabledByConfig) {
  auto topology = std::vector<core::Node>{testing::node(0, "0")};
  for (auto metric : {Metric::read_latency, Metric::bandwidth}) {
    auto source = MetricSource::create(metric, metrics_config("none", "none"), "/", topology);
    auto reading = source->read(TimePoint{});
    EXPECT_FALSE(reading.available());
    EXPECT_EQ(reading.unavailable_reason, "disabled by config");
    EXPECT_TRUE(reading.provider.empty());
  }
}

TEST(MetricSourceCreate, UnknownOrMismatchedProviderIsUnavailableAndSaysSo) {
  auto topology = std::vector<core::Node>{testing::node(0, "0")};
  auto probe_for_bandwidth =
      MetricSource::create(Metric::bandwidth, metrics_config("auto", "probe"), "/", topology);
  EXPECT_EQ(probe_for_bandwidth->read(TimePoint{}).unavailable_reason,
            "unknown bandwidth provider \"probe\"");
  auto typo =
      MetricSource::create(Metric::read_latency, metrics_config("perff", "auto"), "/", topology);
  EXPECT_EQ(typo->read(TimePoint{}).unavailable_reason, "unknown read_latency provider \"perff\"");
}

// Under another root perf is off (it would count this machine), resctrl reads the tree.
TEST(MetricSourceCreate, AutoBandwidthUnderAHostRootSaysPerfIsOffThenTriesResctrl) {
  nb::testing::TempTree host;  // a tree without resctrl
  host.make_dir("sys/bus/event_source/devices/cpu");
  auto source = MetricSource::create(Metric::bandwidth, metrics_config("auto", "auto"), host.root(),
                                     {testing::node(0, "0-1")});
  auto reading = source->read(TimePoint{});
  EXPECT_FALSE(reading.available());
  auto perf = reading.unavailable_reason.find("perf: off under --host-root");
  auto resctrl = reading.unavailable_reason.find("; resctrl: ");
  ASSERT_NE(perf, std::string::npos) << reading.unavailable_reason;
  ASSERT_NE(resctrl, std::string::npos) << reading.unavailable_reason;
  EXPECT_LT(perf, resctrl);
  EXPECT_NE(reading.unavailable_reason.find("resctrl not mounted"), std::string::npos);
}

TEST(MetricSourceCreate, FileProviderServesBothMetricsFromOneDocument) {
  nb::testing::TempTree host;
  auto config = metrics_config("file", "file");
  config.file.path = host.make_file("metrics.json", R"({"time": 0, "nodes": [
      {"id": 0, "read_latency_ns": 75, "bandwidth_gbps": 20}]})")
                         .string();
  auto topology = std::vector<core::Node>{testing::node(0, "0")};
  auto latency = MetricSource::create(Metric::read_latency, config, host.root(), topology);
  auto bandwidth = MetricSource::create(Metric::bandwidth, config, host.root(), topology);
  auto latency_reading = latency->read(TimePoint{});
  auto bandwidth_reading = bandwidth->read(TimePoint{});
  EXPECT_EQ(latency_reading.values, (NodeValues{{0, 75}}));
  EXPECT_EQ(latency_reading.provider, "file");
  EXPECT_EQ(latency_reading.kind, LatencyKind::external);
  EXPECT_EQ(bandwidth_reading.values, (NodeValues{{0, 20}}));
  EXPECT_EQ(bandwidth_reading.kind, std::nullopt);
}

TEST(MetricSourceCreate, FileProviderBadValuesAreNamedForBothFormats) {
  nb::testing::TempTree host;
  auto config = metrics_config("file", "file");
  auto topology = std::vector<core::Node>{testing::node(0, "0"), testing::node(1, "1")};
  config.file.path = host.make_file("metrics.json", R"({"time": 0, "nodes": [
      {"id": 0, "read_latency_ns": 75, "bandwidth_gbps": 20},
      {"id": 1, "read_latency_ns": -95, "bandwidth_gbps": 20}]})")
                         .string();
  auto from_json = MetricSource::create(Metric::read_latency, config, host.root(), topology);
  EXPECT_EQ(from_json->read(TimePoint{}).unavailable_reason,
            "file: node 1 read_latency_ns: must not be negative, got -95");

  config.file.path = host.make_file("metrics.prom",
                                    "numabalancer_node_bandwidth_gbps{node=\"0\"} 12\n"
                                    "numabalancer_node_bandwidth_gbps{node=\"1\"} NaN\n")
                         .string();
  config.file.bandwidth_metric = "numabalancer_node_bandwidth_gbps";
  config.file.max_age = std::chrono::hours(24 * 365 * 100);
  auto from_text = MetricSource::create(Metric::bandwidth, config, host.root(), topology);
  const std::string reason = from_text->read(std::chrono::system_clock::now()).unavailable_reason;
  EXPECT_EQ(reason, "file: " + config.file.path +
                        ": numabalancer_node_bandwidth_gbps{node=\"1\"}: must be a finite number, "
                        "got NaN");
}

// This machine is a VM: no uncore PMU, no resctrl. The daemon must say so, not invent numbers.
TEST(MetricSourceOnThisHost, AutoBandwidthIsUnavailableWithAReason) {
  auto topology = testing::host_topology();
  ASSERT_FALSE(topology.empty());
  auto source = MetricSource::create(Metric::bandwidth, config::MetricsConfig{}, "/", topology);
  auto reading = source->read(TimePoint{});
  if (reading.available()) {
    GTEST_SKIP() << "this host has bandwidth counters (" << reading.provider << ")";
  }
  EXPECT_TRUE(reading.provider.empty());
  EXPECT_NE(reading.unavailable_reason.find("perf: "), std::string::npos)
      << reading.unavailable_reason;
  EXPECT_NE(reading.unavailable_reason.find("resctrl: "), std::string::npos)
      << reading.unavailable_reason;
  EXPECT_EQ(reading.unavailable_reason.find("off under --host-root"), std::string::npos)
      << "\"/\" is this machine: nothing is switched off";
}

TEST(MetricSourceOnThisHost, AutoLatencyFallsBackToTheProbe) {
  auto topology = testing::host_topology();
  ASSERT_FALSE(topology.empty());
  auto config = config::MetricsConfig{};
  config.probe.buffer_bytes = 16 * kMiB;
  auto source = MetricSource::create(Metric::read_latency, config, "/", topology);
  auto reading = source->read(TimePoint{});
  if (reading.provider == "perf") {
    GTEST_SKIP() << "this host has memory-controller counters";
  }
  ASSERT_TRUE(reading.available()) << reading.unavailable_reason;
  EXPECT_EQ(reading.provider, "probe");
  EXPECT_EQ(reading.kind, LatencyKind::load_to_use);
  EXPECT_NE(reading.unavailable_reason.find("perf: "), std::string::npos);
  for (const auto& [node, ns] : reading.values) {
    EXPECT_GT(ns, 0.2) << "node " << node;
    EXPECT_LT(ns, 10'000.0) << "node " << node;
  }
}

}  // namespace
}  // namespace nb::metrics
