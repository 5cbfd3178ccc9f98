#pragma once
// What a read-latency number measures. The kind travels with the numbers in the snapshot because
// the same host reads ~20 ns of memory-controller queueing and ~120 ns of load-to-use latency at
// the same load: thresholds tuned for one kind mean nothing for another.

#include <optional>
#include <string_view>

namespace nb::core {

enum class LatencyKind {
  memory_controller_queue,  // read-pending-queue occupancy / inserts (the seed's kind)
  cache_miss,               // cycles an LLC miss waits, from core PMU events
  load_to_use,              // a dependent load from issue to data (the probe)
  external,                 // whatever another program wrote (the file provider)
};

std::string_view to_string(LatencyKind kind);
std::optional<LatencyKind> latency_kind_from(std::string_view name);

}  // namespace nb::core
