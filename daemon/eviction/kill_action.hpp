#pragma once
// `kill`: writes cgroup.kill on v2; on v1, which has no such file, SIGKILLs each process of the
// cgroup tree.

#include "daemon/eviction/eviction_action.hpp"

namespace nb::eviction {

std::unique_ptr<EvictionAction> make_kill_action(const config::EvictionConfig& config);

}  // namespace nb::eviction
