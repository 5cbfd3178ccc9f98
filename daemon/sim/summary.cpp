#include "daemon/sim/summary.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace nb::sim {

namespace {

long seconds_of(Duration duration) {
  return static_cast<long>(std::chrono::duration_cast<std::chrono::seconds>(duration).count());
}

}  // namespace

SummaryBuilder::SummaryBuilder(const HostModel& host, Duration ping_pong_window,
                               std::optional<Duration> first_event, Duration interval)
    : host_(host),
      window_seconds_(seconds_of(ping_pong_window)),
      first_event_(first_event),
      interval_seconds_(std::max(1L, seconds_of(interval))),
      departures_(host.container_count(), std::vector<std::deque<Departure>>(host.node_count())) {}

std::optional<double> SummaryBuilder::sensitive_latency(const std::vector<NodeLoad>& loads) const {
  double weighted = 0;
  double traffic = 0;
  double plain = 0;
  int count = 0;
  for (std::size_t c = 0; c < host_.container_count(); ++c) {
    const ScenarioContainer& container = host_.container(c);
    if (!container.latency_sensitive || host_.total_bytes(c) <= 0) {
      continue;
    }
    const double latency = host_.access_latency_ns(c, loads);
    weighted += container.bandwidth_gbps * latency;
    traffic += container.bandwidth_gbps;
    plain += latency;
    ++count;
  }
  if (count == 0) {
    return std::nullopt;
  }
  return traffic > 0 ? weighted / traffic : plain / count;
}

std::optional<double> SummaryBuilder::traffic_latency(const std::vector<NodeLoad>& loads) const {
  double weighted = 0;
  double traffic = 0;
  for (std::size_t c = 0; c < host_.container_count(); ++c) {
    const double bandwidth = host_.container(c).bandwidth_gbps;
    if (bandwidth <= 0 || host_.total_bytes(c) <= 0) {
      continue;
    }
    weighted += bandwidth * host_.access_latency_ns(c, loads);
    traffic += bandwidth;
  }
  if (traffic <= 0) {
    return std::nullopt;
  }
  return weighted / traffic;
}

void SummaryBuilder::second(long /*second*/, const std::vector<NodeLoad>& loads) {
  if (auto latency = sensitive_latency(loads)) {
    sensitive_.push_back(*latency);
  }
  if (auto latency = traffic_latency(loads)) {
    traffic_sum_ += *latency;
    ++traffic_seconds_;
  }
}

void SummaryBuilder::batch(long second, const Batch& batch) {
  summary_.bytes_moved += batch.bytes;
  summary_.bytes_received[host_.node(batch.to).id] += batch.bytes;
  departures_[batch.container][batch.from].push_back(Departure{second, batch.bytes});
  // What comes back onto a node it left within the window is reversed, oldest departure first.
  auto& left = departures_[batch.container][batch.to];
  while (!left.empty() && second - left.front().second > window_seconds_) {
    left.pop_front();
  }
  Bytes arriving = batch.bytes;
  while (arriving > 0 && !left.empty()) {
    const Bytes matched = std::min(arriving, left.front().bytes);
    summary_.bytes_reversed += matched;
    arriving -= matched;
    left.front().bytes -= matched;
    if (left.front().bytes == 0) {
      left.pop_front();
    }
  }
}

void SummaryBuilder::round(std::string_view status, bool deferred) {
  ++summary_.rounds;
  ++summary_.rounds_by_status[std::string(status)];
  if (deferred) {
    ++summary_.rounds_deferred;
  }
}

std::optional<double> SummaryBuilder::settle_seconds() const {
  const long seconds = static_cast<long>(sensitive_.size());
  if (!first_event_ || seconds == 0) {
    return std::nullopt;
  }
  const long tail = std::min(interval_seconds_, seconds);
  const double final_value =
      std::accumulate(sensitive_.end() - tail, sensitive_.end(), 0.0) / static_cast<double>(tail);
  long settled = 0;  // the first second from which it stays within the band
  for (long s = seconds - 1; s >= 0; --s) {
    if (std::abs(sensitive_[s] - final_value) > kSettleBand * final_value) {
      settled = s + 1;
      break;
    }
  }
  if (settled > seconds - tail) {
    return std::nullopt;
  }
  return static_cast<double>(std::max(0L, settled - seconds_of(*first_event_)));
}

Summary SummaryBuilder::finish(const std::vector<NodeLoad>& last) {
  if (!sensitive_.empty()) {
    summary_.sensitive_latency_mean_ns =
        std::accumulate(sensitive_.begin(), sensitive_.end(), 0.0) /
        static_cast<double>(sensitive_.size());
    summary_.sensitive_latency_max_ns = *std::max_element(sensitive_.begin(), sensitive_.end());
  }
  if (traffic_seconds_ > 0) {
    summary_.traffic_latency_mean_ns = traffic_sum_ / static_cast<double>(traffic_seconds_);
  }
  double highest = 0;
  double lowest = 0;
  for (std::size_t n = 0; n < last.size(); ++n) {
    if (host_.node(n).memory_only()) {
      continue;
    }
    const double latency = last[n].loaded_latency_ns;
    highest = highest == 0 ? latency : std::max(highest, latency);
    lowest = lowest == 0 ? latency : std::min(lowest, latency);
  }
  if (lowest > 0) {
    summary_.final_latency_spread = highest / lowest;
  }
  summary_.settle_seconds = settle_seconds();
  summary_.had_events = first_event_.has_value();
  return summary_;
}

}  // namespace nb::sim
