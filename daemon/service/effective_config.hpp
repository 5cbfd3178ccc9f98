#pragma once
// The configuration the daemon runs with, as the `config` admin command shows it: the TOML
// sections and keys, sizes and durations written as in the file ("512MiB", "30s").

#include <nlohmann/json.hpp>

#include "daemon/config/config.hpp"

namespace nb::service {

nlohmann::json effective_config_json(const config::Config& config);

}  // namespace nb::service
