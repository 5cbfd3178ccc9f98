#pragma once
// How the policy decides where memory goes. `katalyst` is the seed's decision: pressure levels
// from thresholds, whole containers from the hottest node to the coolest. `equalize` sizes each
// move from per-node load curves so that the source's loaded latency comes within a deadband of
// its destinations', and makes no move it predicts would slow service memory.

#include <optional>
#include <string_view>

namespace nb::core {

enum class Strategy { katalyst, equalize };

std::string_view to_string(Strategy strategy);
std::optional<Strategy> strategy_from(std::string_view name);

}  // namespace nb::core
