#include "daemon/metrics/prometheus_text.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace nb::metrics {
namespace {

TEST(ParsePrometheusText, ReadsTypesLabelsValuesAndTimestamps) {
  auto text = parse_prometheus_text(
      "# HELP node_bytes_total Bytes served.\n"
      "# TYPE node_bytes_total counter\n"
      "node_bytes_total{node=\"0\",socket=\"a\"} 1.5e9 1700000000000\n"
      "node_bytes_total{node=\"1\"} 42\r\n"
      "\n"
      "latency_ns 12\n"
      "escaped{path=\"a\\\"b\\\\c\\nd\",} +Inf\n");
  ASSERT_TRUE(text.ok()) << text.error().context;
  ASSERT_EQ(text->samples.size(), 4U);
  EXPECT_EQ(text->type_of("node_bytes_total"), "counter");
  EXPECT_EQ(text->type_of("latency_ns"), "untyped");
  const auto& first = text->samples[0];
  EXPECT_EQ(first.name, "node_bytes_total");
  EXPECT_EQ(first.labels.at("node"), "0");
  EXPECT_EQ(first.labels.at("socket"), "a");
  EXPECT_DOUBLE_EQ(first.value, 1.5e9);
  EXPECT_EQ(first.timestamp_ms, 1700000000000);
  EXPECT_DOUBLE_EQ(text->samples[1].value, 42);
  EXPECT_FALSE(text->samples[1].timestamp_ms.has_value());
  EXPECT_TRUE(text->samples[2].labels.empty());
  EXPECT_EQ(text->samples[3].labels.at("path"), "a\"b\\c\nd");
  EXPECT_TRUE(std::isinf(text->samples[3].value));
}

TEST(PrometheusSeriesName, IsTheNameWithItsLabelsAsTheFormatWritesThem) {
  PrometheusSample sample;
  sample.name = "latency_ns";
  EXPECT_EQ(series_name(sample), "latency_ns");
  sample.labels = {{"socket", "a\"b\\c\nd"}, {"node", "1"}};
  EXPECT_EQ(series_name(sample), "latency_ns{node=\"1\",socket=\"a\\\"b\\\\c\\nd\"}");
}

TEST(ParsePrometheusText, EmptyTextHasNoSamples) {
  auto text = parse_prometheus_text("");
  ASSERT_TRUE(text.ok());
  EXPECT_TRUE(text->samples.empty());
}

struct GarbageCase {
  const char* text;
  const char* problem;
};

TEST(ParsePrometheusText, GarbageIsRejectedWithTheLineAndTheProblem) {
  const GarbageCase cases[] = {
      {"ok 1\n{node=\"0\"} 1\n", "line 2: expected a metric name"},
      {"m{node=0} 1\n", "line 1: unterminated or unquoted value of label node"},
      {"m{node=\"0\" 1\n", "line 1: expected ',' or '}'"},
      {"m{node=\"0} 1\n", "line 1: unterminated"},
      {"m twelve\n", "line 1: bad value \"twelve\""},
      {"m\n", "line 1: bad value \"\""},
      {"m 1 soon\n", "line 1: bad timestamp"},
      {"m 1 2 3\n", "line 1: unexpected text"},
      {"# TYPE\n", "line 1: malformed TYPE line"},
      {"<html>\n", "line 1: expected a metric name"},
  };
  for (const auto& c : cases) {
    auto text = parse_prometheus_text(c.text);
    ASSERT_FALSE(text.ok()) << c.text;
    EXPECT_NE(text.error().context.find(c.problem), std::string::npos)
        << c.text << " gave: " << text.error().context;
  }
}

}  // namespace
}  // namespace nb::metrics
