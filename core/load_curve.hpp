#pragma once
// A node's loaded read latency as a function of the bandwidth it serves: what `equalize` uses to
// predict a move's outcome before making it. The shape is a queue's,
//
//   latency(b) = idle x (1 + steepness x u / (1 - u)),   u = min(b / capacity, kMaxLoad)
//
// flat at low load and rising steeply towards the node's capacity, as a memory controller's
// read latency does. Steepness and capacity are fitted to the node's own readings (bandwidth
// and latency pairs seen over past rounds); a node whose readings do not span enough load gets
// the curve through its one current reading with steepness 1.

#include <optional>
#include <vector>

namespace nb::core {

inline constexpr double kMaxLoad = 0.99;

// One reading of a node: the bandwidth it served and the latency that came with it.
struct LoadPoint {
  double bandwidth_gbps = 0;
  double latency_ns = 0;

  bool operator==(const LoadPoint&) const = default;
};

struct LoadCurve {
  double idle_ns = 0;
  double steepness = 1;
  double capacity_gbps = 0;
  int readings = 0;  // the readings it was fitted to; 0 when assumed through one reading

  double latency_at(double bandwidth_gbps) const;
  // The bandwidth at which the curve reaches `latency_ns`: 0 below idle, and capacity x kMaxLoad
  // above the curve's ceiling.
  double bandwidth_at(double latency_ns) const;
  bool learned() const { return readings > 0; }
};

// The least-squares fit of steepness and capacity to `points`, with `idle_ns` given. nullopt
// when the points do not span enough load to tell the curve's shape: fewer than two bandwidths
// 10 % apart, or none loaded 5 % above idle.
std::optional<LoadCurve> fit_load_curve(const std::vector<LoadPoint>& points, double idle_ns);

// The curve with steepness 1 through `point`, for a node with one reading of note.
LoadCurve curve_through(LoadPoint point, double idle_ns);

// The shape of `curve` for another node with its own idle latency: nodes of one host are
// usually alike, and a node that was never loaded has shown no shape of its own.
LoadCurve borrowed_curve(const LoadCurve& curve, double idle_ns);

// The readings a node keeps for its curve: at most kMaxLoadPoints, one per bandwidth (a new
// reading replaces an older one within 5 % of its bandwidth), the oldest dropped first.
inline constexpr std::size_t kMaxLoadPoints = 32;

class LoadPoints {
 public:
  void add(LoadPoint point);
  const std::vector<LoadPoint>& points() const { return points_; }

 private:
  std::vector<LoadPoint> points_;  // oldest first
};

}  // namespace nb::core
