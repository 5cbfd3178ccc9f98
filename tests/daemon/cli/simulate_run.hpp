#pragma once
// Runs `numabalancerd simulate` as an operator does, on a scenario file, and reads its --json
// lines back: the round lines and the summary's modes.

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/temp_tree.hpp"

namespace nb::cli::testing {

namespace fs = std::filesystem;
using nlohmann::json;

inline const fs::path kScenarios = fs::path(NB_SOURCE_DIR) / "tests/data/sim";
inline const fs::path kDaemon = fs::path(NB_BINARY_DIR) / "numabalancerd";

struct Simulation {
  int exit_code = -1;
  std::vector<json> rounds;
  json summary;  // summary.modes
  std::string out;
  std::string err;
};

// `environment`, if given, goes before the command: "PATH=/nowhere".
inline Simulation simulate(const fs::path& scenario, const std::string& arguments,
                           const std::string& environment = "") {
  nb::testing::TempTree tree;
  const fs::path out = tree.path("stdout");
  const fs::path err = tree.path("stderr");
  const std::string command = environment + " '" + kDaemon.string() + "' simulate --scenario '" +
                              scenario.string() + "' " + arguments + " >'" + out.string() +
                              "' 2>'" + err.string() + "'";
  const int status = std::system(command.c_str());
  Simulation run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = nb::testing::read_file(out);
  run.err = nb::testing::read_file(err);
  if (run.exit_code == 0 && arguments.find("--json") != std::string::npos) {
    std::istringstream lines(run.out);
    for (std::string line; std::getline(lines, line);) {
      json value = json::parse(line);
      if (value.contains("summary")) {
        run.summary = value["summary"]["modes"];
      } else {
        run.rounds.push_back(std::move(value));
      }
    }
  }
  return run;
}

inline Simulation shipped(const std::string& name, const std::string& arguments,
                          const std::string& environment = "") {
  return simulate(kScenarios / (name + ".toml"), arguments, environment);
}

}  // namespace nb::cli::testing
