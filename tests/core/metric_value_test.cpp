#include "core/metric_value.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace nb::core {
namespace {

TEST(MetricValue, ZeroAndPositiveFiniteValuesPass) {
  EXPECT_EQ(metric_value_problem(0), std::nullopt);
  EXPECT_EQ(metric_value_problem(95.5), std::nullopt);
}

TEST(MetricValue, NegativeValuesAreRefusedWithTheValue) {
  EXPECT_EQ(metric_value_problem(-95), "must not be negative, got -95");
  EXPECT_EQ(metric_value_problem(-3.5), "must not be negative, got -3.5");
}

TEST(MetricValue, NonFiniteValuesAreRefusedInPrometheusSpelling) {
  EXPECT_EQ(metric_value_problem(std::numeric_limits<double>::quiet_NaN()),
            "must be a finite number, got NaN");
  EXPECT_EQ(metric_value_problem(std::numeric_limits<double>::infinity()),
            "must be a finite number, got +Inf");
  EXPECT_EQ(metric_value_problem(-std::numeric_limits<double>::infinity()),
            "must be a finite number, got -Inf");
}

}  // namespace
}  // namespace nb::core
