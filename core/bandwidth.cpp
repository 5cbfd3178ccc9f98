#include "core/bandwidth.hpp"

#include <utility>

#include "core/describe.hpp"

namespace nb::core {

namespace {

constexpr int kLocalDistance = 10;

}  // namespace

BandwidthAssessment assess_bandwidth(const Readings& readings, const Reading& pressured,
                                     const PolicyConfig& config) {
  const Reading& busiest = readings.busiest();
  if (&pressured == &busiest) {
    return {BandwidthLevel::high, "node " + std::to_string(pressured.id()) +
                                      " also carries the most bandwidth (" +
                                      format_number(pressured.bandwidth_gbps) + " GB/s)"};
  }
  const double ratio = pressured.bandwidth_gbps / busiest.bandwidth_gbps;
  const std::string said = "node " + std::to_string(pressured.id()) + " carries " +
                           format_number(pressured.bandwidth_gbps) + " GB/s, " +
                           format_number(ratio) + " of node " + std::to_string(busiest.id()) +
                           "'s " + format_number(busiest.bandwidth_gbps) + " GB/s";
  if (ratio > config.bandwidth_high_ratio) {
    return {BandwidthLevel::high,
            said + " > bandwidth_high_ratio " + format_number(config.bandwidth_high_ratio)};
  }
  if (ratio > config.bandwidth_medium_ratio) {
    return {BandwidthLevel::medium,
            said + " > bandwidth_medium_ratio " + format_number(config.bandwidth_medium_ratio)};
  }
  return {BandwidthLevel::low,
          said + " <= bandwidth_medium_ratio " + format_number(config.bandwidth_medium_ratio)};
}

Refused<Regulation> regulate_by_bandwidth(const Readings& readings, const Reading& pressured,
                                          PressureLevel level, BandwidthLevel bandwidth,
                                          std::vector<Candidate> by_distance) {
  Regulation regulation;
  if (bandwidth == BandwidthLevel::high) {
    regulation.source = &pressured;
    regulation.candidates = std::move(by_distance);
    regulation.why =
        "memory leaves node " + std::to_string(pressured.id()) +
        (&pressured == &readings.hottest() ? ", the node with the highest read latency"
                                           : ", the node furthest above its baseline read latency");
    return regulation;
  }
  if (level == PressureLevel::grace) {
    regulation.cancelled = true;
    regulation.why = "grace round cancelled: node " + std::to_string(pressured.id()) +
                     " is not a high-bandwidth node, so moving its memory would not lower its "
                     "latency";
    return regulation;
  }

  const Reading& busiest = readings.busiest();
  regulation.source = &busiest;
  regulation.bandwidth_pressure = true;
  if (bandwidth == BandwidthLevel::medium) {
    // Traffic from the hot node's CPUs is likely landing on the busiest node: spread that node's
    // memory to the quietest node it can reach.
    Candidates quietest = candidates_by_bandwidth(readings, busiest);
    if (!quietest) {
      return quietest.error();
    }
    if (!quietest->empty()) {
      quietest->resize(1);
    }
    regulation.candidates = std::move(*quietest);
    regulation.why = "bandwidth pressure: memory leaves node " + std::to_string(busiest.id()) +
                     " (most bandwidth) for the node with the least bandwidth";
    return regulation;
  }
  // The hot node's latency is not real when it carries this little traffic: it becomes the
  // destination, as if it were local to the busiest node.
  regulation.candidates = {Candidate{pressured.id(), kLocalDistance, pressured.read_latency_ns,
                                     pressured.bandwidth_gbps}};
  regulation.why = "bandwidth pressure: memory leaves node " + std::to_string(busiest.id()) +
                   " (most bandwidth) for node " + std::to_string(pressured.id()) +
                   ", whose high latency comes with little traffic";
  return regulation;
}

}  // namespace nb::core
