#pragma once
// Relative thresholds judge each node against its own latency with little load, so a node that is
// always slow (CXL, HBM, a remote socket) is not mistaken for a node under pressure.

#include "core/readings.hpp"
#include "core/refusal.hpp"

namespace nb::core {

// Refused (calibrating) while any node lacks a baseline, naming those nodes.
Refused<Ok> require_baselines(const Readings& readings);

// The node furthest above its own baseline: the highest latency ÷ baseline, ties to the higher
// latency, then the lower id. Every node must have a baseline (require_baselines).
const Reading& furthest_above_baseline(const Readings& readings);

// A baseline is only usable above 0 ns: it divides and multiplies the readings.
double baseline_of(const Reading& reading);

}  // namespace nb::core
