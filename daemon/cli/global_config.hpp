#pragma once
// The configuration a subcommand runs with: the file --config names, read by the same loader the
// daemon uses, or the built-in defaults without one.

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "daemon/cli/commands.hpp"
#include "daemon/config/config.hpp"
#include "daemon/config/problem.hpp"

namespace nb::cli {

// The error is every problem of the file, as problem_lines() writes them.
Result<config::Config, std::string> load_global_config(const GlobalOptions& global,
                                                       std::string_view command);

// A problem a line: "numabalancerd COMMAND: FILE: problem" (also for a simulate scenario file).
std::string problem_lines(std::string_view command, const std::string& file,
                          const std::vector<config::ConfigProblem>& problems);

}  // namespace nb::cli
