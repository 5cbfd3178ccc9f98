#pragma once
// `exec`: runs the configured argv without a shell, with the container, node and reason in its
// environment, and kills it when it outlives the timeout.

#include "daemon/eviction/eviction_action.hpp"

namespace nb::eviction {

std::unique_ptr<EvictionAction> make_exec_action(const config::EvictionConfig& config);

}  // namespace nb::eviction
