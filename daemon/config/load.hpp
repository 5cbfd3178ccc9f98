#pragma once
// TOML to Config. Unknown keys, wrong types and invalid values are all problems, reported
// together, each with its key and its line and column. `--check-config`, start-up and reload all
// use these functions.

#include <filesystem>
#include <string_view>
#include <vector>

#include "daemon/config/config.hpp"
#include "daemon/config/problem.hpp"

namespace nb::config {

struct ConfigLoad {
  Config config;  // what could be read; use it only when ok()
  std::vector<ConfigProblem> problems;

  bool ok() const { return problems.empty(); }
};

// A missing or unreadable file is a problem too.
ConfigLoad load_config_file(const std::filesystem::path& path);
// `source_name` names the document in TOML syntax errors.
ConfigLoad load_config_string(std::string_view toml, std::string_view source_name);

}  // namespace nb::config
