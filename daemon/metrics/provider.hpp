#pragma once
// A source of one per-node metric (read latency or bandwidth). Providers fail closed: when the
// counters are absent (VMs) read() returns an Error whose context says why, and the snapshot then
// carries no value for that metric. A zero is never reported as a measurement.

#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "base/result.hpp"
#include "base/units.hpp"
#include "core/latency_kind.hpp"

namespace nb::metrics {

enum class Metric { read_latency, bandwidth };

// What a latency provider measures; the policy reads it from the snapshot (core/latency_kind.hpp).
using core::LatencyKind;
using core::to_string;

std::string_view to_string(Metric metric);
// The metric's field in a snapshot's nodes and in the file provider's JSON: "read_latency_ns",
// "bandwidth_gbps".
std::string_view field_name(Metric metric);

using NodeValues = std::map<NodeId, double>;  // ns for latency, GB/s for bandwidth

class Provider {
 public:
  virtual ~Provider() = default;

  virtual std::string_view name() const = 0;  // "file", "probe", "perf", "resctrl"
  virtual Metric metric() const = 0;
  virtual std::optional<LatencyKind> latency_kind() const { return std::nullopt; }

  // The latest per-node values; nodes the provider cannot measure are absent from the map.
  virtual Result<NodeValues> read(TimePoint now) = 0;
};

}  // namespace nb::metrics
