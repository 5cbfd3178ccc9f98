#include "tests/daemon/service/export/exposition_validator.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace nb::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kValid =
    "# HELP up_total Things.\n"
    "# TYPE up_total counter\n"
    "up_total{a=\"x\\\"y\\\\z\\n\",b=\"\"} 3\n"
    "up_total{a=\"other\",} 1e+20\n"
    "# HELP temp Temperature with a \\\\ and a \\n in its help.\n"
    "# TYPE temp gauge\n"
    "temp -1.5\n"
    "temp{x=\"1\"} NaN\n"
    "temp{x=\"2\"} +Inf\n"
    "# a plain comment\n"
    "# HELP lat_seconds Latency.\n"
    "# TYPE lat_seconds histogram\n"
    "lat_seconds_bucket{le=\"0.5\"} 1\n"
    "lat_seconds_bucket{le=\"1\"} 3\n"
    "lat_seconds_bucket{le=\"+Inf\"} 4\n"
    "lat_seconds_sum 7.25\n"
    "lat_seconds_count 4\n"
    "lat_seconds_bucket{op=\"w\",le=\"+Inf\"} 0\n"
    "lat_seconds_sum{op=\"w\"} 0\n"
    "lat_seconds_count{op=\"w\"} 0\n";

TEST(ExpositionValidator, AcceptsWellFormedText) {
  EXPECT_THAT(exposition_problems(kValid), IsEmpty());
  EXPECT_THAT(exposition_problems(""), IsEmpty());
}

struct BadCase {
  const char* what;
  std::string text;
  const char* problem;
};

const std::string kGaugeHead = "# HELP g A gauge.\n# TYPE g gauge\n";
const std::string kHistogramHead = "# HELP h_seconds H.\n# TYPE h_seconds histogram\n";

class ExpositionValidatorRejects : public ::testing::TestWithParam<BadCase> {};

TEST_P(ExpositionValidatorRejects, NamesTheBrokenRule) {
  const auto& c = GetParam();
  auto problems = exposition_problems(c.text);
  ASSERT_FALSE(problems.empty()) << c.what;
  std::string all;
  for (const auto& p : problems) {
    all += p + "\n";
  }
  EXPECT_THAT(all, HasSubstr(c.problem)) << c.what;
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, ExpositionValidatorRejects,
    ::testing::Values(
        BadCase{"no help", "# TYPE g gauge\ng 1\n", "has no HELP before it"},
        BadCase{"no type", "# HELP g A gauge.\ng 1\n", "has no TYPE before it"},
        BadCase{"nothing", "g 1\n", "has no HELP and TYPE before it"},
        BadCase{"type after sample", "# HELP g A.\ng 1\n# TYPE g gauge\n", "after its samples"},
        BadCase{"help twice", kGaugeHead + "# HELP g again\ng 1\n", "second HELP"},
        BadCase{"unknown type", "# HELP g A.\n# TYPE g meter\ng 1\n", "unknown type"},
        BadCase{"counter without _total", "# HELP c A.\n# TYPE c counter\nc 1\n",
                "does not end in _total"},
        BadCase{"negative counter", "# HELP c_total A.\n# TYPE c_total counter\nc_total -1\n",
                "negative"},
        BadCase{"bad metric name", kGaugeHead + "9g 1\n", "invalid metric name"},
        BadCase{"bad label name", kGaugeHead + "g{9a=\"x\"} 1\n", "invalid label name"},
        BadCase{"reserved label", kGaugeHead + "g{__name__=\"x\"} 1\n", "reserved"},
        BadCase{"label twice", kGaugeHead + "g{a=\"x\",a=\"y\"} 1\n", "given twice"},
        BadCase{"bad escape", kGaugeHead + "g{a=\"x\\t\"} 1\n", "invalid escape"},
        BadCase{"unclosed value", kGaugeHead + "g{a=\"x} 1\n", "not closed"},
        BadCase{"missing comma", kGaugeHead + "g{a=\"x\"b=\"y\"} 1\n", "not separated"},
        BadCase{"bad value", kGaugeHead + "g 1.2.3\n", "not a number"},
        BadCase{"lowercase inf", kGaugeHead + "g inf\n", "not a number"},
        BadCase{"timestamp", kGaugeHead + "g 1 1700000000000\n", "timestamps are not allowed"},
        BadCase{"trailing space", kGaugeHead + "g 1 \n", "trailing spaces"},
        BadCase{"two spaces", kGaugeHead + "g  1\n", "not a number"},
        BadCase{"duplicate series", kGaugeHead + "g{a=\"1\",b=\"2\"} 1\ng{b=\"2\",a=\"1\"} 2\n",
                "duplicate series"},
        BadCase{"split family",
                kGaugeHead + "g{a=\"1\"} 1\n# HELP f F.\n# TYPE f gauge\nf 1\ng{a=\"2\"} 1\n",
                "not in one group"},
        BadCase{"empty line", kGaugeHead + "g 1\n\n", "empty line"},
        BadCase{"no final newline", kGaugeHead + "g 1", "does not end with a newline"},
        BadCase{"bad help escape", "# HELP g a \\t b\n# TYPE g gauge\ng 1\n", "invalid escape"},
        BadCase{"buckets not cumulative",
                kHistogramHead + "h_seconds_bucket{le=\"1\"} 3\nh_seconds_bucket{le=\"+Inf\"} 2\n"
                                 "h_seconds_sum 1\nh_seconds_count 2\n",
                "not cumulative"},
        BadCase{
            "no +Inf bucket",
            kHistogramHead + "h_seconds_bucket{le=\"1\"} 3\nh_seconds_sum 1\nh_seconds_count 3\n",
            "not le=\"+Inf\""},
        BadCase{"count differs",
                kHistogramHead +
                    "h_seconds_bucket{le=\"+Inf\"} 3\nh_seconds_sum 1\nh_seconds_count 4\n",
                "_count differs"},
        BadCase{"bounds out of order",
                kHistogramHead +
                    "h_seconds_bucket{le=\"2\"} 1\nh_seconds_bucket{le=\"1\"} 1\n"
                    "h_seconds_bucket{le=\"+Inf\"} 1\nh_seconds_sum 1\nh_seconds_count 1\n",
                "do not increase"},
        BadCase{"bucket without le",
                kHistogramHead + "h_seconds_bucket 1\nh_seconds_sum 1\nh_seconds_count 1\n",
                "has no le label"},
        BadCase{"no sum", kHistogramHead + "h_seconds_bucket{le=\"+Inf\"} 1\nh_seconds_count 1\n",
                "no _sum"},
        BadCase{"no count", kHistogramHead + "h_seconds_bucket{le=\"+Inf\"} 1\nh_seconds_sum 1\n",
                "no _count"},
        BadCase{"bare histogram sample", kHistogramHead + "h_seconds 1\n",
                "is not _bucket, _sum or _count"}));

}  // namespace
}  // namespace nb::testing
