#pragma once
// TOML to Config. Unknown keys, wrong types and invalid values are all problems, reported
// together, each with its key and its line and column. `--check-config`, start-up and reload all
// use these functions.

#include <filesystem>
#include <string_view>
#include <vector>

#include "daemon/config/config.hpp"
#include "daemon/config/extension_names.hpp"
#include "daemon/config/problem.hpp"

namespace nb::config {

struct ConfigLoad {
  Config config;  // what could be read; use it only when ok()
  std::vector<ConfigProblem> problems;

  bool ok() const { return problems.empty(); }
};

// A missing or unreadable file is a problem too. `names` are the provider and eviction-action
// names to accept (service::extension_names()).
ConfigLoad load_config_file(const std::filesystem::path& path, const ExtensionNames& names);
// `source_name` names the document in TOML syntax errors.
ConfigLoad load_config_string(std::string_view toml, std::string_view source_name,
                              const ExtensionNames& names);

}  // namespace nb::config
