#pragma once
// Why a round ends before it can act: the status the decision carries and the reason an operator
// reads. The policy's steps return `Refused<T>` so that every early end travels the same way.

#include <string>

#include "base/result.hpp"
#include "core/decision.hpp"

namespace nb::core {

struct Refusal {
  DecisionStatus status = DecisionStatus::failed;
  std::string reason;
};

template <typename T>
using Refused = Result<T, Refusal>;

}  // namespace nb::core
