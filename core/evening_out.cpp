#include "core/evening_out.hpp"

#include <algorithm>
#include <string>

#include "base/human_format.hpp"

namespace nb::core {

namespace {

constexpr int kBisectionSteps = 60;  // of the common latency the nodes are evened out to

}  // namespace

ShiftPlan even_out(const NodeView& source, std::vector<const NodeView*> destinations) {
  ShiftPlan plan{&source, std::move(destinations), {}, source.latency};
  double low = source.latency;
  for (const NodeView* destination : plan.destinations) {
    low = std::min(low, destination->latency);
  }
  double high = source.latency;
  auto shifted_at = [&](double target, std::vector<double>& shares) {
    shares.clear();
    double onto = 0;
    for (const NodeView* destination : plan.destinations) {
      shares.push_back(std::max(0.0, destination->bandwidth_for(target) - destination->bandwidth));
      onto += shares.back();
    }
    const double off = source.bandwidth - std::min(source.bandwidth, source.bandwidth_for(target));
    return onto - off;
  };
  std::vector<double> shares;
  for (int step = 0; step < kBisectionSteps; ++step) {
    const double middle = (low + high) / 2;
    (shifted_at(middle, shares) > 0 ? high : low) = middle;
  }
  plan.common_latency = low;
  shifted_at(low, plan.shifted);
  return plan;
}

double traffic_per_gib(const NodeView& source, Bytes movable, const History& history,
                       Notes& notes) {
  const double most = source.bandwidth / (static_cast<double>(movable) / kGiB);
  const double all_bytes = static_cast<double>(source.batch_bytes + source.service_bytes);
  const double least = source.bandwidth / (all_bytes / kGiB);
  const Round* newest = nullptr;
  for (const Round& round : history) {
    if (round.migrated && round.source_node == source.node->id && round.effect &&
        round.effect->traffic_per_gib && (newest == nullptr || round.time > newest->time)) {
      newest = &round;
    }
  }
  if (newest == nullptr) {
    return most;
  }
  const double measured = *newest->effect->traffic_per_gib;
  const double taken = std::clamp(measured, least, most);
  notes.add("traffic per GiB: the newest measured round off node " +
            std::to_string(source.node->id) + " lost " + format_number(measured) +
            " GB/s per GiB it moved; taken as " + format_number(taken) + " (between " +
            format_number(least) + " and " + format_number(most) + ")");
  return taken;
}

std::optional<double> service_latency(const std::vector<MovedTo>& nodes) {
  double weighted = 0;
  double bytes = 0;
  for (const MovedTo& node : nodes) {
    const double latency = node.view->predict(node.bandwidth);
    const double stayed =
        static_cast<double>(node.view->service_bytes) + std::min(0.0, node.service_bytes_gained);
    const double arrived = std::max(0.0, node.service_bytes_gained);
    weighted += stayed * latency + arrived * (latency + node.remote_penalty_ns);
    bytes += static_cast<double>(node.view->service_bytes);
  }
  if (bytes <= 0) {
    return std::nullopt;
  }
  return weighted / bytes;
}

}  // namespace nb::core
