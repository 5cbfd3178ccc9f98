#pragma once
// What every action test evicts: the container pods/a of a temporary cgroup tree.

#include <string>

#include "daemon/eviction/registry.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::eviction {

inline config::EvictionConfig action(std::string name) {
  config::EvictionConfig config;
  config.action = std::move(name);
  return config;
}

inline EvictionRequest request_for(const testing::TempTree& tree, bool v2 = true) {
  return EvictionRequest{"pods/a", tree.path("cg/pods/a"), v2, 1, "node 1 under force pressure"};
}

}  // namespace nb::eviction
