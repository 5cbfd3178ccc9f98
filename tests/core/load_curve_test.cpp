// Load curves: fitted to a node's readings, inverted, assumed through one reading.

#include "core/load_curve.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace nb::core {
namespace {

// The simulator's node: idle 90 ns, steepness 0.15, capacity 100 GB/s.
double queue_latency(double bandwidth) {
  const double load = std::min(bandwidth / 100, 0.98);
  return 90 * (1 + 0.15 * load / (1 - load));
}

TEST(LoadCurve, FitsReadingsOfAQueueAndPredictsBetweenThem) {
  std::vector<LoadPoint> points;
  for (double bandwidth : {5.0, 20.0, 45.0, 70.0, 85.0}) {
    points.push_back(LoadPoint{bandwidth, queue_latency(bandwidth)});
  }
  const auto curve = fit_load_curve(points, 90);
  ASSERT_TRUE(curve.has_value());
  EXPECT_TRUE(curve->learned());
  EXPECT_EQ(curve->readings, 5);
  for (double bandwidth : {30.0, 60.0, 80.0}) {
    EXPECT_NEAR(curve->latency_at(bandwidth), queue_latency(bandwidth),
                0.03 * queue_latency(bandwidth))
        << "at " << bandwidth << " GB/s";
  }
}

TEST(LoadCurve, BandwidthAtInvertsLatencyAt) {
  const LoadCurve curve{90, 0.3, 120, 4};
  for (double bandwidth : {0.0, 10.0, 60.0, 110.0}) {
    EXPECT_NEAR(curve.bandwidth_at(curve.latency_at(bandwidth)), bandwidth, 1e-6);
  }
  EXPECT_EQ(curve.bandwidth_at(80), 0);  // below idle
  EXPECT_NEAR(curve.bandwidth_at(1e9), kMaxLoad * 120, 1e-6);
}

TEST(LoadCurve, ReadingsThatShowNoShapeFitNothing) {
  EXPECT_FALSE(fit_load_curve({{40, 120}}, 90).has_value());             // one reading
  EXPECT_FALSE(fit_load_curve({{40, 120}, {41, 121}}, 90).has_value());  // one bandwidth
  EXPECT_FALSE(fit_load_curve({{5, 90.5}, {30, 91}}, 90).has_value());   // never loaded
  EXPECT_FALSE(fit_load_curve({{5, 100}, {30, 140}}, 0).has_value());    // no idle latency
}

TEST(LoadCurve, TheCurveThroughOneReadingPassesThroughIt) {
  const LoadCurve curve = curve_through(LoadPoint{60, 180}, 90);
  EXPECT_FALSE(curve.learned());
  EXPECT_NEAR(curve.latency_at(60), 180, 1e-9);
  EXPECT_NEAR(curve.latency_at(0), 90, 1e-9);
  EXPECT_LT(curve.latency_at(30), 180);
}

TEST(LoadCurve, ABorrowedCurveKeepsTheShapeAtItsOwnIdleLatency) {
  const LoadCurve learned{90, 0.3, 120, 4};
  const LoadCurve borrowed = borrowed_curve(learned, 180);
  EXPECT_FALSE(borrowed.learned());
  EXPECT_NEAR(borrowed.latency_at(60), 2 * learned.latency_at(60), 1e-9);
}

TEST(LoadPoints, KeepsOneReadingPerBandwidthAndDropsTheOldest) {
  LoadPoints points;
  points.add({50, 120});
  points.add({51, 125});  // within 5 %: replaces it
  ASSERT_EQ(points.points().size(), 1U);
  EXPECT_EQ(points.points().front(), (LoadPoint{51, 125}));
  double bandwidth = 100;  // each 10 % above the one before: none replaces another
  for (std::size_t i = 0; i < kMaxLoadPoints + 3; ++i) {
    points.add({bandwidth, 200});
    bandwidth *= 1.1;
  }
  EXPECT_EQ(points.points().size(), kMaxLoadPoints);
  // 36 readings into 32: 51 and the three lowest of the rest are gone.
  EXPECT_DOUBLE_EQ(points.points().front().bandwidth_gbps, 100 * std::pow(1.1, 3));
}

}  // namespace
}  // namespace nb::core
