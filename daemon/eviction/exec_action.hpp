#pragma once
// `exec`: runs the configured argv without a shell, with the container, node and reason in its
// environment and nothing else but PATH, no descriptor above 2, and kills its process group when
// it outlives the timeout.

#include "daemon/eviction/eviction_action.hpp"

namespace nb::eviction {

std::unique_ptr<EvictionAction> make_exec_action(const config::EvictionConfig& config);

}  // namespace nb::eviction
