#pragma once
// The kernel's own NUMA balancing (sysctl kernel.numa_balancing). When it is on, the kernel
// migrates pages towards the CPUs that touch them and can move what numabalancer moved straight
// back, so the daemon warns about it at start-up.

#include <filesystem>
#include <optional>
#include <string>

#include "base/result.hpp"

namespace nb::host {

// The value of <host_root>/proc/sys/kernel/numa_balancing: 0 off, 1 normal balancing, 2 memory
// tiering, 3 both (any non-zero value moves pages).
Result<int> read_numa_balancing(const std::filesystem::path& host_root);

// The start-up warning, or nothing when balancing is off. A kernel built without NUMA balancing
// has no such file: nothing to warn about either.
std::optional<std::string> numa_balancing_warning(const std::filesystem::path& host_root);

}  // namespace nb::host
