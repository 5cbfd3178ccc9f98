#pragma once
// What happens to a container the policy marks for eviction: one EvictionAction per
// `[eviction] action`, made by its row in registry.cpp.

#include <filesystem>
#include <memory>
#include <string>

#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/config/config.hpp"

namespace nb::eviction {

struct EvictionRequest {
  std::string container_id;
  std::filesystem::path cgroup_dir;
  bool cgroup_v2 = true;
  NodeId node = 0;
  std::string reason;
};

struct EvictionResult {
  std::string action;
  bool acted = false;   // false for `none`
  int signalled = 0;    // kill on v1: processes sent SIGKILL
  int vanished = 0;     // processes gone before the signal (a normal outcome)
  int exit_status = 0;  // exec: the command's exit status
  std::string detail;
};

class EvictionAction {
 public:
  virtual ~EvictionAction() = default;
  // `result` arrives with its action set; the action fills in the rest.
  virtual Result<EvictionResult> evict(const EvictionRequest& request,
                                       EvictionResult result) const = 0;
};

// Made from the whole [eviction] section, since an action may have settings of its own.
using MakeEvictionAction = std::unique_ptr<EvictionAction> (*)(const config::EvictionConfig&);

}  // namespace nb::eviction
