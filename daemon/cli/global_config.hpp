#pragma once
// The configuration a subcommand runs with: the file --config names, read by the same loader the
// daemon uses, or the built-in defaults without one.

#include <string>
#include <string_view>

#include "base/result.hpp"
#include "daemon/cli/commands.hpp"
#include "daemon/config/config.hpp"

namespace nb::cli {

// The error is every problem of the file, a line each: "numabalancerd COMMAND: FILE: problem".
Result<config::Config, std::string> load_global_config(const GlobalOptions& global,
                                                       std::string_view command);

}  // namespace nb::cli
