#pragma once
// Writes one value into a cgroup control file (cgroup.freeze, cgroup.kill).

#include <filesystem>
#include <string_view>

#include "base/result.hpp"

namespace nb::eviction {

Status write_control(const std::filesystem::path& file, std::string_view value);

}  // namespace nb::eviction
