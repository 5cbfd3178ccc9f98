#pragma once
// A decision as a short report an operator can read top to bottom: the verdict, the reasoning
// lines core wrote (rules, candidates, containers), and the plan in actuator order. Shared by
// `numabalancerd plan --explain` and numabalancerctl.

#include <string>

#include "core/decision.hpp"

namespace nb::codec {

std::string format_explanation(const core::Decision& decision);

}  // namespace nb::codec
