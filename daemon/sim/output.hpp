#pragma once
// What `simulate` prints. With --json: one line per round, then the summary as the last line,
// {"summary": {"scenario": NAME, "modes": {MODE: {...}}}}. Without it: the modes side by side in
// a short table, each figure with its ratio to `off` when `off` ran.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "daemon/sim/simulation.hpp"
#include "daemon/sim/summary.hpp"

namespace nb::sim {

using ModeSummaries = std::vector<std::pair<std::string, Summary>>;  // in the order they ran

nlohmann::json round_json(std::string_view mode, const RoundReport& round);
nlohmann::json summary_json(std::string_view scenario, const ModeSummaries& modes);
std::string summary_table(std::string_view scenario, const ModeSummaries& modes);

}  // namespace nb::sim
