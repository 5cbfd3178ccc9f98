#include "daemon/cli/global_config.hpp"

#include "daemon/config/load.hpp"
#include "daemon/service/extension_names.hpp"

namespace nb::cli {

Result<config::Config, std::string> load_global_config(const GlobalOptions& global,
                                                       std::string_view command) {
  if (global.config_path.empty()) {
    return config::Config{};
  }
  config::ConfigLoad load =
      config::load_config_file(global.config_path, service::extension_names());
  if (load.ok()) {
    return std::move(load.config);
  }
  return problem_lines(command, global.config_path, load.problems);
}

std::string problem_lines(std::string_view command, const std::string& file,
                          const std::vector<config::ConfigProblem>& problems) {
  std::string lines;
  for (const config::ConfigProblem& problem : problems) {
    lines +=
        "numabalancerd " + std::string(command) + ": " + file + ": " + problem.to_string() + '\n';
  }
  return lines;
}

}  // namespace nb::cli
