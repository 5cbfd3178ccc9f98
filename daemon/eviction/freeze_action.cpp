#include "daemon/eviction/freeze_action.hpp"

#include <cerrno>

#include "daemon/eviction/control_file.hpp"

namespace nb::eviction {
namespace {

class FreezeAction : public EvictionAction {
 public:
  Result<EvictionResult> evict(const EvictionRequest& request,
                               EvictionResult result) const override {
    if (!request.cgroup_v2) {
      return make_error(ENOTSUP, "freeze " + request.container_id + ": needs cgroup v2");
    }
    if (auto status = write_control(request.cgroup_dir / "cgroup.freeze", "1"); !status) {
      return status.error();
    }
    result.acted = true;
    result.detail = "frozen";
    return result;
  }
};

}  // namespace

std::unique_ptr<EvictionAction> make_freeze_action(const config::EvictionConfig&) {
  return std::make_unique<FreezeAction>();
}

}  // namespace nb::eviction
