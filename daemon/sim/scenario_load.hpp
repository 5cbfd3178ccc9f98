#pragma once
// Scenario TOML to Scenario, with the problems the config loader reports: each names its key
// and its line (`node[1].memory (line 9, column 1): must be positive`). Unknown keys, wrong types
// and events about nodes, pools or containers the scenario does not declare are all problems.

#include <filesystem>
#include <string_view>
#include <vector>

#include "daemon/config/config.hpp"
#include "daemon/config/problem.hpp"
#include "daemon/sim/scenario.hpp"

namespace nb::sim {

struct ScenarioLoad {
  Scenario scenario;  // use it only when ok()
  std::vector<config::ConfigProblem> problems;

  bool ok() const { return problems.empty(); }
};

// `base` is --config's (or the defaults); the scenario's [policy], [actuator] and
// [metrics.baseline] keys override it key by key, and the result is validated as a config is.
ScenarioLoad load_scenario_string(std::string_view toml, std::string_view name,
                                  const config::Config& base);
ScenarioLoad load_scenario_file(const std::filesystem::path& path, const config::Config& base);

}  // namespace nb::sim
