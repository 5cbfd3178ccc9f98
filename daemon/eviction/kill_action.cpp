#include "daemon/eviction/kill_action.hpp"

#include <signal.h>

#include <cerrno>

#include "actuator/process_list.hpp"
#include "daemon/eviction/control_file.hpp"

namespace nb::eviction {
namespace {

Result<EvictionResult> kill_v1(const EvictionRequest& request, EvictionResult result) {
  auto pids = actuator::cgroup_processes(request.cgroup_dir);
  if (!pids) {
    return pids.error();
  }
  for (pid_t pid : pids.value()) {
    if (::kill(pid, SIGKILL) == 0) {
      ++result.signalled;
    } else if (errno == ESRCH) {
      ++result.vanished;
    } else {
      return make_error(errno, "kill " + std::to_string(pid));
    }
  }
  result.acted = true;
  result.detail = "SIGKILL sent to " + std::to_string(result.signalled) + " processes";
  return result;
}

class KillAction : public EvictionAction {
 public:
  Result<EvictionResult> evict(const EvictionRequest& request,
                               EvictionResult result) const override {
    if (!request.cgroup_v2) {
      return kill_v1(request, std::move(result));
    }
    if (auto status = write_control(request.cgroup_dir / "cgroup.kill", "1"); !status) {
      return status.error();
    }
    result.acted = true;
    result.detail = "cgroup.kill written";
    return result;
  }
};

}  // namespace

std::unique_ptr<EvictionAction> make_kill_action(const config::EvictionConfig&) {
  return std::make_unique<KillAction>();
}

}  // namespace nb::eviction
