// The registry is both what MetricSource can make and what config validation accepts.

#include "daemon/metrics/provider_registry.hpp"

#include <gtest/gtest.h>

namespace nb::metrics {
namespace {

using Names = std::vector<std::string_view>;

TEST(ProviderRegistry, ChoicesAreAutoEachProviderOfTheMetricAndNone) {
  EXPECT_EQ(provider_choices(Metric::read_latency),
            (Names{"auto", "perf", "probe", "file", "none"}));
  EXPECT_EQ(provider_choices(Metric::bandwidth),
            (Names{"auto", "perf", "resctrl", "file", "none"}));
}

TEST(ProviderRegistry, FindsAProviderOnlyForAMetricItMeasures) {
  ASSERT_NE(find_provider(Metric::read_latency, "probe"), nullptr);
  EXPECT_EQ(find_provider(Metric::read_latency, "probe")->config_section, "metrics.probe");
  EXPECT_EQ(find_provider(Metric::bandwidth, "probe"), nullptr);
  EXPECT_EQ(find_provider(Metric::read_latency, "resctrl"), nullptr);
  EXPECT_EQ(find_provider(Metric::read_latency, "none"), nullptr);
}

TEST(ProviderRegistry, AutoTriesEveryProviderButTheFile) {
  for (const ProviderEntry& entry : providers()) {
    EXPECT_EQ(entry.tried_by_auto, entry.name != "file") << entry.name;
    EXPECT_NE(entry.make, nullptr) << entry.name;
  }
}

}  // namespace
}  // namespace nb::metrics
