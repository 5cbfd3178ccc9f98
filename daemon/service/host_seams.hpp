#pragma once
// The daemon's seams on the live host: the host scanner, core::decide, the actuator with the real
// syscalls, the config file loader and the cgroup layout.

#include <filesystem>

#include "base/result.hpp"
#include "daemon/config/config.hpp"
#include "daemon/service/daemon.hpp"

namespace nb::service {

Result<DaemonSeams> host_seams(const config::Config& config,
                               const std::filesystem::path& host_root);

}  // namespace nb::service
