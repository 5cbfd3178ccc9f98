#pragma once
// What one mode's run comes to: the figures `simulate` prints and its tests hold to their bars.
//
// - sensitive latency: each second, the latency-sensitive containers' access latency weighted
//   by their traffic (an unweighted mean when none has traffic); its time mean and maximum.
// - traffic latency: each second, every container's access latency weighted by its traffic,
//   batch included, so that a strategy cannot buy service latency by wrecking batch throughput;
//   its time mean.
// - bytes_reversed: bytes of a container moved onto a node within ping_pong_window of the same
//   container's bytes leaving that node (at most what left).
// - final_latency_spread: in the last second, the highest loaded latency over nodes with CPUs
//   divided by the lowest.
// - settle_seconds: the sensitive latency's final value is its mean over the last round
//   interval; it has settled from the first second after which it stays within 10 % of that
//   value to the end. The figure counts from the first event (0 if it settled before); null
//   without events or sensitive containers, or when it is still moving in the last interval.

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/units.hpp"
#include "daemon/sim/host_model.hpp"
#include "daemon/sim/mover.hpp"

namespace nb::sim {

inline constexpr double kSettleBand = 0.1;

struct Summary {
  std::optional<double> sensitive_latency_mean_ns;
  std::optional<double> sensitive_latency_max_ns;
  std::optional<double> traffic_latency_mean_ns;
  Bytes bytes_moved = 0;
  int rounds_acted = 0;  // rounds whose job moved memory
  std::map<std::string, int> rounds_by_status;
  Bytes bytes_reversed = 0;
  std::optional<double> final_latency_spread;
  std::optional<double> settle_seconds;
  bool had_events = false;  // the scenario changed something after its start
  int rounds = 0;
  int rounds_deferred = 0;                 // ready while the previous job still ran
  std::map<std::string, int> effects;      // improved, not_improved, unknown
  std::map<NodeId, Bytes> bytes_received;  // by destination node
};

class SummaryBuilder {
 public:
  SummaryBuilder(const HostModel& host, Duration ping_pong_window,
                 std::optional<Duration> first_event, Duration interval);

  // The host during simulated second `second` (0-based).
  void second(long second, const std::vector<NodeLoad>& loads);
  void batch(long second, const Batch& batch);
  void round(std::string_view status, bool deferred);
  void acted() { ++summary_.rounds_acted; }
  void effect(const std::string& result) { ++summary_.effects[result]; }

  Summary finish(const std::vector<NodeLoad>& last);

  // The latencies of one second: of the latency-sensitive containers, and of all traffic.
  std::optional<double> sensitive_latency(const std::vector<NodeLoad>& loads) const;
  std::optional<double> traffic_latency(const std::vector<NodeLoad>& loads) const;

 private:
  struct Departure {
    long second = 0;
    Bytes bytes = 0;
  };

  std::optional<double> settle_seconds() const;

  const HostModel& host_;
  long window_seconds_;
  std::optional<Duration> first_event_;
  long interval_seconds_;
  std::vector<double> sensitive_;  // by second, when there are sensitive containers
  double traffic_sum_ = 0;         // of the seconds with traffic
  long traffic_seconds_ = 0;
  // [container][node]: bytes that left the node, oldest first.
  std::vector<std::vector<std::deque<Departure>>> departures_;
  Summary summary_;
};

}  // namespace nb::sim
