// The `file` provider reads numabalancer's own node metrics under the base-unit names it exports
// now and under the names of earlier versions, whichever of them is configured.

#include "daemon/metrics/input_names.hpp"

#include <gtest/gtest.h>

#include "daemon/metrics/file_provider.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::metrics {
namespace {

constexpr std::string_view kSecondsAndBytes =
    "# TYPE numabalancer_node_read_latency_seconds gauge\n"
    "numabalancer_node_read_latency_seconds{node=\"0\",provider=\"probe\"} 9.55e-08\n"
    "numabalancer_node_read_latency_seconds{node=\"1\",provider=\"probe\"} 1.4e-07\n"
    "# TYPE numabalancer_node_bandwidth_bytes_per_second gauge\n"
    "numabalancer_node_bandwidth_bytes_per_second{node=\"0\",provider=\"perf\"} 12500000000\n";

constexpr std::string_view kNanosecondsAndGigabytes =
    "# TYPE numabalancer_node_read_latency_ns gauge\n"
    "numabalancer_node_read_latency_ns{node=\"0\",provider=\"probe\"} 95.5\n"
    "# TYPE numabalancer_node_bandwidth_gbps gauge\n"
    "numabalancer_node_bandwidth_gbps{node=\"0\",provider=\"perf\"} 12.5\n";

class InputNamesTest : public ::testing::Test {
 protected:
  // The value each node has for `metric` in `content`, read with the configured names.
  Result<NodeValues> read(Metric metric, std::string_view content,
                          config::FileProviderConfig settings = {}) {
    settings.path = tree_.make_file("metrics.prom", content).string();
    settings.format = "prometheus";
    settings.max_age = std::chrono::hours(1);
    FileProvider provider(metric, settings);
    return provider.read(std::chrono::system_clock::now());
  }

  nb::testing::TempTree tree_;
};

TEST_F(InputNamesTest, DefaultNamesAreTheBaseUnitOnesConvertedToNsAndGigabytes) {
  auto latency = read(Metric::read_latency, kSecondsAndBytes);
  ASSERT_TRUE(latency.ok()) << latency.error().message();
  ASSERT_EQ(latency->size(), 2u);
  EXPECT_DOUBLE_EQ(latency->at(0), 95.5);
  EXPECT_DOUBLE_EQ(latency->at(1), 140);
  auto bandwidth = read(Metric::bandwidth, kSecondsAndBytes);
  ASSERT_TRUE(bandwidth.ok()) << bandwidth.error().message();
  EXPECT_DOUBLE_EQ(bandwidth->at(0), 12.5);
}

TEST_F(InputNamesTest, DefaultNamesStillReadTheEarlierNsAndGigabyteNames) {
  auto latency = read(Metric::read_latency, kNanosecondsAndGigabytes);
  ASSERT_TRUE(latency.ok()) << latency.error().message();
  EXPECT_EQ(*latency, (NodeValues{{0, 95.5}}));
  auto bandwidth = read(Metric::bandwidth, kNanosecondsAndGigabytes);
  ASSERT_TRUE(bandwidth.ok()) << bandwidth.error().message();
  EXPECT_EQ(*bandwidth, (NodeValues{{0, 12.5}}));
}

TEST_F(InputNamesTest, AConfigWithTheEarlierNamesReadsBothSpellings) {
  config::FileProviderConfig earlier;
  earlier.latency_metric = "numabalancer_node_read_latency_ns";
  earlier.bandwidth_metric = "numabalancer_node_bandwidth_gbps";
  auto old_file = read(Metric::read_latency, kNanosecondsAndGigabytes, earlier);
  ASSERT_TRUE(old_file.ok()) << old_file.error().message();
  EXPECT_EQ(*old_file, (NodeValues{{0, 95.5}}));
  auto new_file = read(Metric::bandwidth, kSecondsAndBytes, earlier);
  ASSERT_TRUE(new_file.ok()) << new_file.error().message();
  EXPECT_DOUBLE_EQ(new_file->at(0), 12.5);
}

TEST_F(InputNamesTest, TheConfiguredSpellingWinsWhenTheFileHasBoth) {
  std::string both = std::string(kNanosecondsAndGigabytes) +
                     "# TYPE numabalancer_node_read_latency_seconds gauge\n"
                     "numabalancer_node_read_latency_seconds{node=\"0\"} 2e-07\n";
  auto seconds = read(Metric::read_latency, both);
  ASSERT_TRUE(seconds.ok()) << seconds.error().message();
  EXPECT_DOUBLE_EQ(seconds->at(0), 200);
  config::FileProviderConfig earlier;
  earlier.latency_metric = "numabalancer_node_read_latency_ns";
  auto nanoseconds = read(Metric::read_latency, both, earlier);
  ASSERT_TRUE(nanoseconds.ok()) << nanoseconds.error().message();
  EXPECT_DOUBLE_EQ(nanoseconds->at(0), 95.5);
}

TEST_F(InputNamesTest, ANameOutsideTheTableIsReadAsIs) {
  config::FileProviderConfig custom;
  custom.latency_metric = "pcm_read_latency_seconds";
  auto values = read(Metric::read_latency, "pcm_read_latency_seconds{node=\"0\"} 90\n", custom);
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_EQ(*values, (NodeValues{{0, 90}})) << "only numabalancer's own names are converted";
}

TEST_F(InputNamesTest, NeitherSpellingPresentNamesBoth) {
  auto values = read(Metric::bandwidth, "other_metric{node=\"0\"} 1\n");
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().message().find("no numabalancer_node_bandwidth_bytes_per_second series "
                                          "(nor numabalancer_node_bandwidth_gbps)"),
            std::string::npos)
      << values.error().message();
}

}  // namespace
}  // namespace nb::metrics
