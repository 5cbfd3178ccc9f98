#pragma once
// `freeze`: writes cgroup.freeze, which only cgroup v2 has.

#include "daemon/eviction/eviction_action.hpp"

namespace nb::eviction {

std::unique_ptr<EvictionAction> make_freeze_action(const config::EvictionConfig& config);

}  // namespace nb::eviction
