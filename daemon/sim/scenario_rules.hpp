#pragma once
// What a scenario must satisfy beyond its types: positive sizes and rates, a distance row per
// node, pools, containers and events that name only what the scenario declares. Problems name
// their key; the loader adds the line.

#include <vector>

#include "daemon/config/problem.hpp"
#include "daemon/sim/scenario.hpp"

namespace nb::sim {

std::vector<config::ConfigProblem> scenario_problems(const Scenario& scenario);

}  // namespace nb::sim
