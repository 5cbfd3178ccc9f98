#include "daemon/metrics/file_provider.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "base/time.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::metrics {
namespace {

using namespace std::chrono_literals;

const TimePoint kNow = *parse_rfc3339("2026-12-02T15:04:05Z");

class FileProviderTest : public ::testing::Test {
 protected:
  config::FileProviderConfig config(std::string_view file, std::string format = "auto") {
    config::FileProviderConfig result;
    result.path = tree_.path(file).string();
    result.format = std::move(format);
    result.latency_metric = "node_read_latency_ns";
    result.bandwidth_metric = "node_memory_bytes_total";
    return result;
  }

  // Writes the file as an exporter would, last modified at `written`.
  void write(std::string_view file, std::string_view content, TimePoint written) {
    auto path = tree_.make_file(file, content);
    auto since_epoch = written.time_since_epoch();
    auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
    timespec times[2];
    times[0].tv_sec = times[1].tv_sec = seconds.count();
    times[0].tv_nsec = times[1].tv_nsec =
        std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch - seconds).count();
    ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  }

  nb::testing::TempTree tree_;
};

constexpr std::string_view kJson = R"({
  "time": "2026-12-02T15:04:00Z",
  "nodes": [
    {"id": 0, "read_latency_ns": 95.5, "bandwidth_gbps": 12.25},
    {"id": 1, "read_latency_ns": 140, "bandwidth_gbps": null},
    {"id": 3, "bandwidth_gbps": 3}
  ]
})";

TEST_F(FileProviderTest, JsonGivesEachNodesValueForTheMetric) {
  write("m.json", kJson, kNow);
  FileProvider latency(Metric::read_latency, config("m.json"));
  FileProvider bandwidth(Metric::bandwidth, config("m.json"));

  auto latencies = latency.read(kNow);
  auto bandwidths = bandwidth.read(kNow);

  ASSERT_TRUE(latencies.ok()) << latencies.error().message();
  ASSERT_TRUE(bandwidths.ok()) << bandwidths.error().message();
  EXPECT_EQ(*latencies, (NodeValues{{0, 95.5}, {1, 140}}));
  EXPECT_EQ(*bandwidths, (NodeValues{{0, 12.25}, {3, 3}}));
  EXPECT_EQ(latency.latency_kind(), LatencyKind::external);
  EXPECT_EQ(bandwidth.latency_kind(), std::nullopt);
}

TEST_F(FileProviderTest, JsonTimeMayBeUnixSeconds) {
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(kNow.time_since_epoch());
  write("m.json",
        R"({"time": )" + std::to_string(seconds.count() - 2) +
            R"(, "nodes": [{"id": 2, "read_latency_ns": 81}]})",
        kNow);
  FileProvider provider(Metric::read_latency, config("m.json", "json"));
  auto values = provider.read(kNow);
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_EQ(*values, (NodeValues{{2, 81}}));
}

TEST_F(FileProviderTest, ANamedPipeAtThePathIsRefusedWithoutBlockingTheScan) {
  ASSERT_EQ(::mkfifo(tree_.path("m.json").c_str(), 0600), 0);
  FileProvider provider(Metric::read_latency, config("m.json"));
  auto values = provider.read(kNow);
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().message().find("is not a regular file (a named pipe)"),
            std::string::npos)
      << values.error().message();
}

TEST_F(FileProviderTest, JsonOlderThanMaxAgeIsStale) {
  write("m.json", kJson, kNow);
  auto settings = config("m.json");
  settings.max_age = 4s;  // the document is 5 s old
  FileProvider provider(Metric::read_latency, settings);
  auto values = provider.read(kNow);
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("stale"), std::string::npos) << values.error().context;
  EXPECT_NE(values.error().context.find(settings.path), std::string::npos);
}

TEST_F(FileProviderTest, JsonFromTheFutureIsRejected) {
  write("m.json", kJson, kNow);
  FileProvider provider(Metric::read_latency, config("m.json"));
  auto values = provider.read(kNow - 1h);
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("in the future"), std::string::npos);
}

struct GarbageCase {
  const char* content;
  const char* problem;
};

TEST_F(FileProviderTest, JsonGarbageNamesTheFileAndTheProblem) {
  const GarbageCase cases[] = {
      {"{\"time\": ", "not JSON (parse error at line 1, column 10"},
      {"{\"time\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
       "nests deeper than 32 levels"},
      {"{\"nodes\": []}", "no \"time\" field"},
      {"{\"time\": \"yesterday\", \"nodes\": []}", "neither an RFC 3339 time"},
      {"{\"time\": \"2026-12-02T15:04:00Z\"}", "\"nodes\" is missing"},
      {"{\"time\": \"2026-12-02T15:04:00Z\", \"nodes\": [1]}", "not an object"},
      {"{\"time\": \"2026-12-02T15:04:00Z\", \"nodes\": [{\"read_latency_ns\": 1}]}", "no \"id\""},
      {"{\"time\": \"2026-12-02T15:04:00Z\", \"nodes\": [{\"id\": 99999, "
       "\"read_latency_ns\": 1}]}",
       "no \"id\""},
      {"{\"time\": \"2026-12-02T15:04:00Z\", \"nodes\": [{\"id\": 0, \"read_latency_ns\": "
       "\"fast\"}]}",
       "is not a number"},
      {"{\"time\": \"2026-12-02T15:04:00Z\", \"nodes\": [{\"id\": 0}, {\"id\": 0}]}",
       "appears twice"},
  };
  for (const auto& c : cases) {
    write("m.json", c.content, kNow);
    FileProvider provider(Metric::read_latency, config("m.json"));
    auto values = provider.read(kNow);
    ASSERT_FALSE(values.ok()) << c.content;
    EXPECT_NE(values.error().context.find(tree_.path("m.json").string()), std::string::npos);
    EXPECT_NE(values.error().context.find(c.problem), std::string::npos)
        << c.content << " gave: " << values.error().context;
  }
}

// A misspelt key read as "no value" before, so the node silently had no latency; and only the
// first of several mistakes was named.
TEST_F(FileProviderTest, JsonNamesAnUnknownKeyAndEveryMistakeAtOnce) {
  write("m.json", R"({"time": "2026-12-02T15:04:00Z", "nodes": [
      {"id": 0, "read_latency": 95},
      {"id": 1, "read_latency_ns": "slow"},
      {"id": 1, "read_latency_ns": 80},
      {"id": 2, "read_latency_ns": 70}]})",
        kNow);
  FileProvider provider(Metric::read_latency, config("m.json"));
  auto values = provider.read(kNow);
  ASSERT_FALSE(values.ok());
  const std::string& context = values.error().context;
  for (const char* mistake :
       {"node 0: unknown key \"read_latency\" (the keys are id, read_latency_ns and "
        "bandwidth_gbps)",
        "node 1: \"read_latency_ns\" is not a number: \"slow\"", "node 1 appears twice"}) {
    EXPECT_NE(context.find(mistake), std::string::npos) << mistake << " not in: " << context;
  }
}

TEST_F(FileProviderTest, MissingFileIsUnavailableWithItsPathAndErrno) {
  FileProvider provider(Metric::read_latency, config("absent.json"));
  auto values = provider.read(kNow);
  ASSERT_FALSE(values.ok());
  EXPECT_EQ(values.error().code, ENOENT);
  EXPECT_NE(values.error().message().find(tree_.path("absent.json").string()), std::string::npos);
}

TEST_F(FileProviderTest, NoPathConfiguredIsUnavailable) {
  FileProvider provider(Metric::read_latency, config::FileProviderConfig{});
  auto values = provider.read(kNow);
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("no [metrics.file] path"), std::string::npos);
}

constexpr std::string_view kGauges =
    "# HELP node_read_latency_ns Read latency.\n"
    "# TYPE node_read_latency_ns gauge\n"
    "node_read_latency_ns{node=\"0\",host=\"a\"} 88\n"
    "node_read_latency_ns{node=\"2\"} 131.5\n"
    "node_read_latency_ns 100\n"
    "other_metric{node=\"1\"} 5\n";

TEST_F(FileProviderTest, PrometheusGaugeGivesOneValuePerNodeLabel) {
  write("m.prom", kGauges, kNow - 1s);
  FileProvider provider(Metric::read_latency, config("m.prom"));
  auto values = provider.read(kNow);
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_EQ(*values, (NodeValues{{0, 88}, {2, 131.5}}));
}

TEST_F(FileProviderTest, PrometheusBandwidthGaugesOfOneNodeAddUp) {
  write("m.prom",
        "node_memory_bytes_total{node=\"0\",channel=\"0\"} 4\n"
        "node_memory_bytes_total{node=\"0\",channel=\"1\"} 6\n"
        "node_memory_bytes_total{node=\"1\",channel=\"0\"} 1.5\n",
        kNow);
  FileProvider provider(Metric::bandwidth, config("m.prom", "prometheus"));
  auto values = provider.read(kNow);
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_EQ(*values, (NodeValues{{0, 10}, {1, 1.5}}));
}

TEST_F(FileProviderTest, PrometheusCounterBecomesARateBetweenVersionsOfTheFile) {
  auto version = [](double node0_bytes, double node1_bytes) {
    return "# TYPE node_memory_bytes_total counter\n"
           "node_memory_bytes_total{node=\"0\"} " +
           std::to_string(node0_bytes) + "\nnode_memory_bytes_total{node=\"1\"} " +
           std::to_string(node1_bytes) + "\n";
  };
  FileProvider provider(Metric::bandwidth, config("m.prom"));

  write("m.prom", version(1e9, 5e9), kNow - 4s);
  auto first = provider.read(kNow - 3s);
  ASSERT_FALSE(first.ok());
  EXPECT_NE(first.error().context.find("no rate yet"), std::string::npos);

  write("m.prom", version(1e9 + 24e9, 5e9 + 2e9), kNow - 2s);
  auto second = provider.read(kNow);
  ASSERT_TRUE(second.ok()) << second.error().message();
  EXPECT_DOUBLE_EQ(second->at(0), 12);  // 24 GB over the 2 s between the two versions
  EXPECT_DOUBLE_EQ(second->at(1), 1);

  // The same version read again keeps the rate instead of inventing a zero.
  auto unchanged = provider.read(kNow + 1s);
  ASSERT_TRUE(unchanged.ok());
  EXPECT_DOUBLE_EQ(unchanged->at(0), 12);
}

TEST_F(FileProviderTest, PrometheusCounterUsesSampleTimestampsWhenPresent) {
  FileProvider provider(Metric::bandwidth, config("m.prom"));
  auto ms = [](TimePoint t) {
    return std::to_string(
        std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count());
  };
  write("m.prom",
        "# TYPE node_memory_bytes_total counter\nnode_memory_bytes_total{node=\"0\"} 0 " +
            ms(kNow - 10s) + "\n",
        kNow);
  ASSERT_FALSE(provider.read(kNow).ok());
  write("m.prom",
        "# TYPE node_memory_bytes_total counter\nnode_memory_bytes_total{node=\"0\"} 40e9 " +
            ms(kNow - 5s) + "\n",
        kNow);
  auto values = provider.read(kNow);
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 8);  // 40 GB over the samples' 5 s, not the mtimes' 0 s
}

TEST_F(FileProviderTest, PrometheusCounterThatWentBackwardsStartsOver) {
  FileProvider provider(Metric::bandwidth, config("m.prom"));
  auto version = [](double bytes) {
    return "# TYPE node_memory_bytes_total counter\nnode_memory_bytes_total{node=\"0\"} " +
           std::to_string(bytes) + "\n";
  };
  write("m.prom", version(9e9), kNow - 3s);
  ASSERT_FALSE(provider.read(kNow - 3s).ok());
  write("m.prom", version(1e9), kNow - 2s);  // the exporter restarted
  auto after_reset = provider.read(kNow - 2s);
  ASSERT_FALSE(after_reset.ok());
  write("m.prom", version(3e9), kNow - 1s);
  auto values = provider.read(kNow);
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_DOUBLE_EQ(values->at(0), 2);
}

TEST_F(FileProviderTest, PrometheusFileOlderThanMaxAgeIsStale) {
  write("m.prom", kGauges, kNow - 31s);
  FileProvider provider(Metric::read_latency, config("m.prom"));
  auto values = provider.read(kNow);
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("stale"), std::string::npos) << values.error().context;
}

std::string millis(TimePoint time) {
  return std::to_string(
      std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count());
}

// node_exporter's textfile collector rewrites the file every scrape, so its mtime is always
// fresh; a sample's own timestamp is what says that the value itself was read a day ago.
TEST_F(FileProviderTest, PrometheusSampleOlderThanMaxAgeIsStaleAndNamed) {
  write("m.prom",
        "node_read_latency_ns{node=\"0\"} 88 " + millis(kNow - 2s) +
            "\nnode_read_latency_ns{node=\"1\",socket=\"b\"} 95 " + millis(kNow - 24h) + "\n",
        kNow);
  FileProvider provider(Metric::read_latency, config("m.prom"));
  auto values = provider.read(kNow);
  ASSERT_FALSE(values.ok());
  EXPECT_EQ(values.error().context,
            tree_.path("m.prom").string() +
                ": stale sample node_read_latency_ns{node=\"1\",socket=\"b\"}: its timestamp is "
                "24h old (max_age 30s)");
}

TEST_F(FileProviderTest, PrometheusSampleTimestampsWithinMaxAgeAndClockSkewAreUsed) {
  write("m.prom",
        "node_read_latency_ns{node=\"0\"} 88 " + millis(kNow - 29s) +
            "\nnode_read_latency_ns{node=\"1\"} 95 " + millis(kNow + 2s) +
            "\nnode_read_latency_ns 1 " + millis(kNow - 24h) +  // host-wide: not read
            "\nother_metric{node=\"1\"} 5 " + millis(kNow - 24h) + "\n",
        kNow);
  FileProvider provider(Metric::read_latency, config("m.prom"));
  auto values = provider.read(kNow);
  ASSERT_TRUE(values.ok()) << values.error().message();
  EXPECT_EQ(*values, (NodeValues{{0, 88}, {1, 95}}));
}

TEST_F(FileProviderTest, PrometheusSampleFromTheFutureIsRejectedByName) {
  write("m.prom", "node_read_latency_ns{node=\"0\"} 88 " + millis(kNow + 1h) + "\n", kNow);
  FileProvider provider(Metric::read_latency, config("m.prom"));
  auto values = provider.read(kNow);
  ASSERT_FALSE(values.ok());
  EXPECT_EQ(values.error().context,
            tree_.path("m.prom").string() +
                ": sample node_read_latency_ns{node=\"0\"} has a timestamp 1h in the future "
                "(more than the 5s allowed for clock skew)");
}

TEST_F(FileProviderTest, PrometheusSampleWithAWildTimestampIsRejectedNotOverflowed) {
  for (const char* stamp : {"9223372036854775807", "-9223372036854775808"}) {
    write("m.prom", std::string("node_memory_bytes_total{node=\"0\"} 1 ") + stamp + "\n", kNow);
    FileProvider provider(Metric::bandwidth, config("m.prom"));
    auto values = provider.read(kNow);
    ASSERT_FALSE(values.ok()) << stamp;
    EXPECT_NE(values.error().context.find("node_memory_bytes_total{node=\"0\"}"), std::string::npos)
        << values.error().context;
  }
}

TEST_F(FileProviderTest, PrometheusNegativeOrNonFiniteSampleIsRejectedByName) {
  const GarbageCase cases[] = {
      {"node_read_latency_ns{node=\"1\"} -95\n",
       "node_read_latency_ns{node=\"1\"}: must not be negative, got -95"},
      {"node_read_latency_ns{node=\"1\"} NaN\n",
       "node_read_latency_ns{node=\"1\"}: must be a finite number, got NaN"},
      {"node_read_latency_ns{node=\"1\"} +Inf\n",
       "node_read_latency_ns{node=\"1\"}: must be a finite number, got +Inf"},
  };
  for (const auto& c : cases) {
    write("m.prom", std::string("node_read_latency_ns{node=\"0\"} 80\n") + c.content, kNow);
    FileProvider provider(Metric::read_latency, config("m.prom"));
    auto values = provider.read(kNow);
    ASSERT_FALSE(values.ok()) << c.content;
    EXPECT_EQ(values.error().context, tree_.path("m.prom").string() + ": " + c.problem);
  }
}

// A bandwidth counter summed over channels would hide one bad channel: each sample is checked.
TEST_F(FileProviderTest, PrometheusBadChannelOfASummedBandwidthIsRejected) {
  write("m.prom",
        "node_memory_bytes_total{node=\"0\",channel=\"0\"} 10\n"
        "node_memory_bytes_total{node=\"0\",channel=\"1\"} -4\n",
        kNow);
  FileProvider provider(Metric::bandwidth, config("m.prom"));
  auto values = provider.read(kNow);
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("node_memory_bytes_total{channel=\"1\",node=\"0\"}: "
                                        "must not be negative, got -4"),
            std::string::npos)
      << values.error().context;
}

TEST_F(FileProviderTest, AutoFormatNamesBothAttemptsWhenTheFileIsNeither) {
  write("m.json", "{\"time\": 1,\n \"nodes\": [}\n", kNow);
  FileProvider json_like(Metric::read_latency, config("m.json"));
  auto from_json_like = json_like.read(kNow);
  ASSERT_FALSE(from_json_like.ok());
  const std::string json_first = from_json_like.error().context;
  EXPECT_EQ(json_first.find(tree_.path("m.json").string() + ": not JSON (parse error at line 2"),
            0U)
      << json_first;
  EXPECT_NE(json_first.find(") and not Prometheus text (line 1: expected a metric name)"),
            std::string::npos)
      << json_first;

  write("m.prom", "node_read_latency_ns{node=\"0\"} 80\ngarbage here\n", kNow);
  FileProvider text_like(Metric::read_latency, config("m.prom"));
  auto from_text_like = text_like.read(kNow);
  ASSERT_FALSE(from_text_like.ok());
  const std::string text_first = from_text_like.error().context;
  EXPECT_EQ(text_first.find(tree_.path("m.prom").string() +
                            ": not Prometheus text (line 2: bad value \"here\" for garbage) and "
                            "not JSON (parse error at line 1"),
            0U)
      << text_first;
}

TEST_F(FileProviderTest, AutoFormatReadsAJsonArrayAsJson) {
  write("m.json", "[{\"id\": 0}]", kNow);
  FileProvider provider(Metric::read_latency, config("m.json"));
  auto values = provider.read(kNow);
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("expected a JSON object with \"time\" and \"nodes\""),
            std::string::npos)
      << values.error().context;
}

TEST_F(FileProviderTest, PrometheusGarbageNamesTheFileAndTheProblem) {
  const GarbageCase cases[] = {
      {"node_read_latency_ns{node=\"0\"} fast\n", "line 1: bad value"},
      {"node_read_latency_ns{node=\"zero\"} 1\n", "node=\"zero\", not a node number"},
      {"node_read_latency_ns{node=\"0\"} 1\nnode_read_latency_ns{node=\"0\",x=\"1\"} 2\n",
       "several series for node 0"},
      {"# TYPE node_read_latency_ns counter\nnode_read_latency_ns{node=\"0\"} 1\n",
       "a latency must be a gauge"},
      {"some_other_metric 1\n", "no node_read_latency_ns series"},
  };
  for (const auto& c : cases) {
    write("m.prom", c.content, kNow);
    FileProvider provider(Metric::read_latency, config("m.prom"));
    auto values = provider.read(kNow);
    ASSERT_FALSE(values.ok()) << c.content;
    EXPECT_NE(values.error().context.find(tree_.path("m.prom").string()), std::string::npos);
    EXPECT_NE(values.error().context.find(c.problem), std::string::npos)
        << c.content << " gave: " << values.error().context;
  }
}

TEST_F(FileProviderTest, ForcedFormatIsNotGuessed) {
  write("m.prom", kGauges, kNow);
  FileProvider as_json(Metric::read_latency, config("m.prom", "json"));
  auto values = as_json.read(kNow);
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.error().context.find("not valid JSON"), std::string::npos);

  write("m.json", kJson, kNow);
  FileProvider as_text(Metric::read_latency, config("m.json", "prometheus"));
  EXPECT_FALSE(as_text.read(kNow).ok());
}

TEST_F(FileProviderTest, ReadsTheFixtureFilesInTheRepository) {
  auto settings = config("unused");
  settings.max_age = std::chrono::duration_cast<Duration>(std::chrono::years(100));
  settings.path = NB_SOURCE_DIR "/tests/data/metrics/pcm_style.prom";
  settings.latency_metric = "pcm_node_dram_read_latency_ns";
  FileProvider text(Metric::read_latency, settings);
  auto from_text = text.read(kNow);
  ASSERT_TRUE(from_text.ok()) << from_text.error().message();
  EXPECT_EQ(from_text->size(), 2U);

  settings.path = NB_SOURCE_DIR "/tests/data/metrics/four_nodes.json";
  FileProvider json(Metric::bandwidth, settings);
  auto from_json = json.read(kNow);
  ASSERT_TRUE(from_json.ok()) << from_json.error().message();
  EXPECT_EQ(from_json->size(), 4U);
}

}  // namespace
}  // namespace nb::metrics
