#pragma once
// `none`: the container is only reported.

#include "daemon/eviction/eviction_action.hpp"

namespace nb::eviction {

std::unique_ptr<EvictionAction> make_none_action(const config::EvictionConfig& config);

}  // namespace nb::eviction
