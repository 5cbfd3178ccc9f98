// Replays stay replays: under another host root only what the tree holds answers.

#include "daemon/metrics/replay_rule.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "daemon/metrics/source.hpp"
#include "tests/daemon/metrics/topology.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::metrics {
namespace {

const ProviderEntry& entry(std::string_view name) {
  for (const ProviderEntry& candidate : providers()) {
    if (candidate.name == name) {
      return candidate;
    }
  }
  throw std::logic_error("no provider " + std::string(name));
}

TEST(ReplayRule, OnlyTheRootIsThisMachine) {
  struct Case {
    const char* root;
    bool this_machine;
  };
  for (const Case& c : {Case{"/", true}, Case{"//", true}, Case{"/.", true}, Case{"/tmp/..", true},
                        Case{"/tmp/tree", false}, Case{"tree", false}, Case{".", false}}) {
    EXPECT_EQ(is_this_machine(c.root), c.this_machine) << c.root;
  }
}

TEST(ReplayRule, TheRegistrySaysWhichProvidersMeasureThisMachine) {
  EXPECT_TRUE(entry("perf").measures_this_machine);
  EXPECT_TRUE(entry("probe").measures_this_machine);
  EXPECT_FALSE(entry("resctrl").measures_this_machine) << "resctrl reads files under the root";
  EXPECT_FALSE(entry("file").measures_this_machine);
}

TEST(ReplayRule, NothingIsOffOnThisMachine) {
  config::MetricsConfig config;
  config.file.path = "/run/pcm/latency.json";
  for (const ProviderEntry& provider : providers()) {
    EXPECT_EQ(off_under_host_root(provider, config, "/"), std::nullopt) << provider.name;
  }
}

TEST(ReplayRule, UnderATreeTheProbeAndPerfAreOffAndSayWhy) {
  nb::testing::TempTree tree;
  config::MetricsConfig config;
  for (std::string_view name : {"probe", "perf"}) {
    auto off = off_under_host_root(entry(name), config, tree.root());
    ASSERT_TRUE(off.has_value()) << name;
    EXPECT_EQ(*off, "off under --host-root: it would measure this machine, not the tree");
  }
  EXPECT_EQ(off_under_host_root(entry("resctrl"), config, tree.root()), std::nullopt);
}

TEST(ReplayRule, AFileCountsOnlyUnderTheTree) {
  nb::testing::TempTree tree;
  tree.make_dir("inner");
  struct Case {
    std::string path;
    bool counts;
  };
  const Case cases[] = {
      {tree.path("run/metrics.json").string(), true},
      {tree.path("inner/../metrics.json").string(), true},
      {tree.path("inner/../../elsewhere.json").string(), false},
      {"/run/pcm/latency.json", false},
      {tree.root().string(), false},  // the root itself is not a file in the tree
      {tree.root().string() + "-sibling/metrics.json", false},
      {"", false},
  };
  for (const Case& c : cases) {
    config::MetricsConfig config;
    config.file.path = c.path;
    auto off = off_under_host_root(entry("file"), config, tree.root());
    EXPECT_EQ(!off.has_value(), c.counts) << c.path;
    if (off) {
      EXPECT_NE(off->find("is outside " + tree.root().string()), std::string::npos) << *off;
    }
  }
  // A trailing slash on the root changes nothing.
  config::MetricsConfig config;
  config.file.path = tree.path("metrics.json").string();
  EXPECT_EQ(off_under_host_root(entry("file"), config, tree.root().string() + "/"), std::nullopt);
}

TEST(ReplayRule, AutoLatencyUnderATreeIsUnavailableAndNamesBothOffProviders) {
  nb::testing::TempTree tree;
  auto source = MetricSource::create(Metric::read_latency, config::MetricsConfig{}, tree.root(),
                                     {testing::node(0, "0"), testing::node(1, "1")});
  auto reading = source->read(TimePoint{});
  EXPECT_FALSE(reading.available());
  EXPECT_TRUE(reading.provider.empty());
  EXPECT_EQ(reading.unavailable_reason,
            "perf: off under --host-root: it would measure this machine, not the tree; "
            "probe: off under --host-root: it would measure this machine, not the tree");
}

TEST(ReplayRule, AnExplicitProbeUnderATreeIsOffToo) {
  nb::testing::TempTree tree;
  config::MetricsConfig config;
  config.latency = "probe";
  auto source =
      MetricSource::create(Metric::read_latency, config, tree.root(), {testing::node(0, "0")});
  auto reading = source->read(TimePoint{});
  EXPECT_FALSE(reading.available());
  EXPECT_EQ(reading.unavailable_reason,
            "probe: off under --host-root: it would measure this machine, not the tree");
  EXPECT_EQ(reading.kind, std::nullopt) << "nothing was measured, so there is no kind";
}

TEST(ReplayRule, AFileOutsideTheTreeIsOffAndOneInsideAnswers) {
  nb::testing::TempTree tree;
  nb::testing::TempTree elsewhere;
  const std::string document = R"({"time": 0, "nodes": [{"id": 0, "read_latency_ns": 75}]})";
  config::MetricsConfig config;
  config.latency = "file";
  config.file.path = elsewhere.make_file("metrics.json", document).string();
  auto outside =
      MetricSource::create(Metric::read_latency, config, tree.root(), {testing::node(0, "0")});
  auto off = outside->read(TimePoint{});
  EXPECT_FALSE(off.available());
  EXPECT_EQ(off.unavailable_reason.rfind("file: off under --host-root: " + config.file.path, 0), 0u)
      << off.unavailable_reason;

  config.file.path = tree.make_file("metrics.json", document).string();
  auto inside =
      MetricSource::create(Metric::read_latency, config, tree.root(), {testing::node(0, "0")});
  auto reading = inside->read(TimePoint{});
  EXPECT_EQ(reading.values, (NodeValues{{0, 75}}));
  EXPECT_EQ(reading.kind, LatencyKind::external);
}

}  // namespace
}  // namespace nb::metrics
