// The guard rail: absolute thresholds with read latency of another kind than the one the *_ns
// values were tuned for are allowed, and said once per configuration.

#include "daemon/service/threshold_note.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "daemon/service/host_seams.hpp"
#include "tests/daemon/host/host_fixture.hpp"
#include "tests/support/captured_log.hpp"

namespace nb::service {
namespace {

using core::LatencyKind;
using core::ThresholdMode;
using ::testing::HasSubstr;

const TimePoint kNow = TimePoint(std::chrono::seconds(1'800'000'000));

TEST(ThresholdNote, OnlyAbsoluteThresholdsWithAnotherKindGetANote) {
  struct Case {
    ThresholdMode mode;
    LatencyKind kind;
    bool noted;
  };
  const Case cases[] = {
      {ThresholdMode::absolute, LatencyKind::memory_controller_queue, false},
      {ThresholdMode::absolute, LatencyKind::cache_miss, true},
      {ThresholdMode::absolute, LatencyKind::load_to_use, true},
      {ThresholdMode::absolute, LatencyKind::external, true},
      {ThresholdMode::automatic, LatencyKind::memory_controller_queue, false},
      {ThresholdMode::automatic, LatencyKind::load_to_use, false},
      {ThresholdMode::automatic, LatencyKind::external, false},
      {ThresholdMode::relative, LatencyKind::memory_controller_queue, false},
      {ThresholdMode::relative, LatencyKind::cache_miss, false},
      {ThresholdMode::relative, LatencyKind::load_to_use, false},
  };
  for (const Case& c : cases) {
    auto note = threshold_note(c.mode, c.kind, "someprovider");
    EXPECT_EQ(note.has_value(), c.noted) << to_string(c.mode) << " x " << to_string(c.kind);
    if (note) {
      EXPECT_THAT(*note, HasSubstr("kind " + std::string(to_string(c.kind))));
      EXPECT_THAT(*note, HasSubstr("the someprovider provider"));
      EXPECT_THAT(*note, HasSubstr("threshold_mode = \"relative\" or \"auto\""));
    }
  }
}

TEST(ThresholdNote, NamesKindProviderAndTheWayOut) {
  EXPECT_EQ(threshold_note(ThresholdMode::absolute, LatencyKind::load_to_use, "probe"),
            "threshold_mode = \"absolute\" with read latency of kind load_to_use from the probe "
            "provider: the *_ns thresholds are meant for memory_controller_queue latency; unless "
            "they were tuned for this provider, set threshold_mode = \"relative\" or \"auto\"");
}

config::Config configured(std::string latency, ThresholdMode mode) {
  config::Config config;
  config.metrics.latency = std::move(latency);
  config.policy.threshold_mode = mode;
  return config;
}

TEST(ConfiguredThresholdNote, TheConfigTellsTheKindOfANamedProvider) {
  struct Case {
    std::string latency;
    ThresholdMode mode;
    std::optional<std::string> says;  // a piece of the note, or no note
  };
  const Case cases[] = {
      {"probe", ThresholdMode::absolute, "kind load_to_use from the probe provider"},
      {"file", ThresholdMode::absolute, "kind external from the file provider"},
      {"perf", ThresholdMode::absolute, std::nullopt},
      {"none", ThresholdMode::absolute, std::nullopt},
      {"auto", ThresholdMode::absolute,
       "depends on the provider that answers (perf: memory_controller_queue, probe: "
       "load_to_use)"},
      {"probe", ThresholdMode::automatic, std::nullopt},
      {"file", ThresholdMode::relative, std::nullopt},
      {"auto", ThresholdMode::automatic, std::nullopt},
  };
  for (const Case& c : cases) {
    auto note = configured_threshold_note(configured(c.latency, c.mode));
    ASSERT_EQ(note.has_value(), c.says.has_value())
        << c.latency << " x " << to_string(c.mode) << ": " << note.value_or("");
    if (note) {
      EXPECT_THAT(*note, HasSubstr(*c.says));
    }
  }
}

host::ScanReport answered_by(std::string provider, std::optional<LatencyKind> kind) {
  host::ProviderReport latency;
  latency.metric = metrics::Metric::read_latency;
  latency.provider = std::move(provider);
  latency.available = !latency.provider.empty();
  latency.kind = kind;
  host::ScanReport report;
  report.providers = {latency};
  return report;
}

TEST(ThresholdWarning, SaysItOnceUntilRearmed) {
  ThresholdWarning warning;
  const auto probe = answered_by("probe", LatencyKind::load_to_use);
  // No provider answered yet: nothing to name, so the warning waits.
  EXPECT_EQ(warning.after_scan(ThresholdMode::absolute, answered_by("", std::nullopt)),
            std::nullopt);
  auto first = warning.after_scan(ThresholdMode::absolute, probe);
  ASSERT_TRUE(first.has_value());
  EXPECT_THAT(*first, HasSubstr("the probe provider"));
  EXPECT_EQ(warning.after_scan(ThresholdMode::absolute, probe), std::nullopt);
  EXPECT_EQ(warning.after_scan(ThresholdMode::absolute, probe), std::nullopt);
  warning.rearm();
  EXPECT_TRUE(warning.after_scan(ThresholdMode::absolute, probe).has_value());
  EXPECT_EQ(warning.after_scan(ThresholdMode::absolute, probe), std::nullopt);
}

TEST(ThresholdWarning, AFittingKindSpendsItWithoutANote) {
  ThresholdWarning warning;
  EXPECT_EQ(warning.after_scan(ThresholdMode::absolute,
                               answered_by("perf", LatencyKind::memory_controller_queue)),
            std::nullopt);
  EXPECT_EQ(warning.after_scan(ThresholdMode::absolute, answered_by("file", LatencyKind::external)),
            std::nullopt)
      << "said once per configuration: the provider is settled on for its life";
}

using nb::testing::CapturedLog;

// The daemon's scan seam warns at the first round after start-up and after each reload.
TEST(ThresholdWarning, TheDaemonsScanWarnsOncePerConfiguration) {
  nb::testing::TempTree tree;
  nb::testing::make_four_node_sysfs(tree);
  nb::testing::make_v2_host(tree);
  auto config = configured("file", ThresholdMode::absolute);
  config.metrics.bandwidth = "none";
  config.metrics.file.path =
      tree.make_file("run/metrics.json",
                     R"({"time": 1800000000, "nodes": [{"id": 0, "read_latency_ns": 95}]})")
          .string();
  CapturedLog log;
  auto seams = host_seams(config, tree.root());
  ASSERT_TRUE(seams.ok()) << seams.error().message();
  const std::string_view note = "kind external from the file provider";

  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(seams->scan(kNow).ok());
  }
  EXPECT_EQ(log.count(note), 1u);

  seams->reconfigure(config);
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(seams->scan(kNow).ok());
  }
  EXPECT_EQ(log.count(note), 2u);

  config.policy.threshold_mode = ThresholdMode::relative;
  seams->reconfigure(config);
  ASSERT_TRUE(seams->scan(kNow).ok());
  EXPECT_EQ(log.count(note), 2u) << "relative thresholds fit every kind";
}

}  // namespace
}  // namespace nb::service
