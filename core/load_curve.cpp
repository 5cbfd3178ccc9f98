#include "core/load_curve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nb::core {

namespace {

constexpr double kDistinctBandwidth = 0.1;  // two readings tell a shape when this far apart
constexpr double kLoadedAboveIdle = 0.05;   // and one of them is this far above idle
constexpr double kSameBandwidth = 0.05;     // a reading replaces one this close to it
constexpr int kCapacitySteps = 80;
constexpr double kCapacityRange = 40;  // capacities tried: from just above the highest reading
                                       // to this many times it

double excess(double latency_ns, double idle_ns) {
  if (!(idle_ns > 0)) {
    return 0;
  }
  return std::max(0.0, latency_ns / idle_ns - 1);
}

}  // namespace

double LoadCurve::latency_at(double bandwidth_gbps) const {
  if (capacity_gbps <= 0) {
    return idle_ns;
  }
  const double load = std::clamp(bandwidth_gbps / capacity_gbps, 0.0, kMaxLoad);
  return idle_ns * (1 + steepness * load / (1 - load));
}

double LoadCurve::bandwidth_at(double latency_ns) const {
  if (capacity_gbps <= 0 || latency_ns <= idle_ns || steepness <= 0) {
    return 0;
  }
  // latency = idle (1 + s u / (1 - u))  <=>  u = x / (s + x), x = latency / idle - 1
  const double x = excess(latency_ns, idle_ns);
  const double load = std::min(x / (steepness + x), kMaxLoad);
  return load * capacity_gbps;
}

std::optional<LoadCurve> fit_load_curve(const std::vector<LoadPoint>& points, double idle_ns) {
  if (idle_ns <= 0 || points.size() < 2) {
    return std::nullopt;
  }
  double lowest = std::numeric_limits<double>::max();
  double highest = 0;
  double most_excess = 0;
  for (const LoadPoint& point : points) {
    lowest = std::min(lowest, point.bandwidth_gbps);
    highest = std::max(highest, point.bandwidth_gbps);
    most_excess = std::max(most_excess, excess(point.latency_ns, idle_ns));
  }
  if (highest <= 0 || highest - lowest < kDistinctBandwidth * highest ||
      most_excess < kLoadedAboveIdle) {
    return std::nullopt;
  }
  // For a given capacity the excess is linear in steepness, so each capacity on a log grid gets
  // its least-squares steepness in closed form; the capacity with the smallest error wins.
  std::optional<LoadCurve> best;
  double best_error = std::numeric_limits<double>::max();
  for (int step = 0; step <= kCapacitySteps; ++step) {
    const double capacity =
        highest * 1.02 * std::pow(kCapacityRange, static_cast<double>(step) / kCapacitySteps);
    double xy = 0;
    double xx = 0;
    for (const LoadPoint& point : points) {
      const double x = point.bandwidth_gbps / (capacity - point.bandwidth_gbps);
      xy += x * excess(point.latency_ns, idle_ns);
      xx += x * x;
    }
    if (xx <= 0) {
      continue;
    }
    const double steepness = std::max(0.0, xy / xx);
    double error = 0;
    for (const LoadPoint& point : points) {
      const double x = point.bandwidth_gbps / (capacity - point.bandwidth_gbps);
      const double miss = steepness * x - excess(point.latency_ns, idle_ns);
      error += miss * miss;
    }
    if (steepness > 0 && error < best_error) {
      best_error = error;
      best = LoadCurve{idle_ns, steepness, capacity, static_cast<int>(points.size())};
    }
  }
  return best;
}

LoadCurve curve_through(LoadPoint point, double idle_ns) {
  const double x = excess(point.latency_ns, idle_ns);
  if (!(point.bandwidth_gbps > 0) || !(x > 0) || !std::isfinite(x)) {
    // An idle reading shows no load: a curve that stays flat until far beyond it.
    return LoadCurve{idle_ns, 1, 0, 0};
  }
  // With steepness 1, u = x / (1 + x) at the reading.
  const double load = std::min(x / (1 + x), kMaxLoad);
  return LoadCurve{idle_ns, 1, point.bandwidth_gbps / load, 0};
}

LoadCurve borrowed_curve(const LoadCurve& curve, double idle_ns) {
  LoadCurve borrowed = curve;
  borrowed.idle_ns = idle_ns;
  borrowed.readings = 0;
  return borrowed;
}

void LoadPoints::add(LoadPoint point) {
  std::erase_if(points_, [&](const LoadPoint& kept) {
    return std::abs(kept.bandwidth_gbps - point.bandwidth_gbps) <=
           kSameBandwidth * std::max(kept.bandwidth_gbps, point.bandwidth_gbps);
  });
  points_.push_back(point);
  if (points_.size() > kMaxLoadPoints) {
    points_.erase(points_.begin());
  }
}

}  // namespace nb::core
