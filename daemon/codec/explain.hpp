#pragma once
// A decision as a short report an operator can read top to bottom: the verdict, the reasoning
// lines core wrote (rules, candidates, containers), and the plan in actuator order. Shared by
// `numabalancerd plan --explain` and numabalancerctl.

#include <span>
#include <string>

#include "core/decision.hpp"
#include "daemon/host/host_scan.hpp"

namespace nb::codec {

std::string format_explanation(const core::Decision& decision);

// Opens the decision's explanation with why each metric that has no data has none, as its
// providers said ("read_latency unavailable: file: /run/x.prom: stale sample ..."), so that the
// policy's "no node has a read latency" comes with its cause. The daemon does it for each round,
// and `plan` for a snapshot whose meta carries the scan report.
void explain_unavailable_metrics(core::Decision& decision,
                                 std::span<const host::ProviderReport> providers);

}  // namespace nb::codec
