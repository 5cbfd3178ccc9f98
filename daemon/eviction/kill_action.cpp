#include "daemon/eviction/kill_action.hpp"

#include <signal.h>

#include <cerrno>
#include <string>
#include <utility>

#include "actuator/pidfd.hpp"
#include "actuator/process_identity.hpp"
#include "actuator/process_list.hpp"
#include "daemon/eviction/control_file.hpp"

namespace nb::eviction {
namespace {

// The pidfd is opened before the cgroup is checked, so the signal reaches the process the check
// saw even if its pid names another by then. A process gone, or no longer in the cgroup, is
// vanished().
Status kill_member(int pid, const actuator::CgroupName& cgroup,
                   const std::filesystem::path& proc_root) {
  auto opened = actuator::open_pidfd(pid);
  if (!opened) {
    return opened.error();
  }
  actuator::Pidfd pidfd(*opened);
  auto within = actuator::process_in_cgroup(proc_root, pid, cgroup);
  if (!within) {
    return within.error();
  }
  if (!*within) {
    return make_error(ESRCH, "process " + std::to_string(pid) + " has left " + cgroup.path);
  }
  return actuator::pidfd_send_signal(pidfd.get(), SIGKILL);
}

Result<EvictionResult> kill_v1(const EvictionRequest& request, EvictionResult result,
                               const std::filesystem::path& proc_root) {
  auto pids = actuator::cgroup_processes(request.cgroup_dir);
  if (!pids) {
    return pids.error();
  }
  auto cgroup = actuator::cgroup_name(request.cgroup_dir);
  if (!cgroup) {
    return cgroup.error();
  }
  for (int pid : pids.value()) {
    if (auto killed = kill_member(pid, *cgroup, proc_root); killed) {
      ++result.signalled;
    } else if (killed.error().vanished()) {
      ++result.vanished;
    } else {
      return killed.error();
    }
  }
  result.acted = true;
  result.detail = "SIGKILL sent to " + std::to_string(result.signalled) + " processes";
  return result;
}

class KillAction : public EvictionAction {
 public:
  explicit KillAction(std::filesystem::path proc_root) : proc_root_(std::move(proc_root)) {}

  Result<EvictionResult> evict(const EvictionRequest& request,
                               EvictionResult result) const override {
    if (!request.cgroup_v2) {
      return kill_v1(request, std::move(result), proc_root_);
    }
    if (auto status = write_control(request.cgroup_dir / "cgroup.kill", "1"); !status) {
      return status.error();
    }
    result.acted = true;
    result.detail = "cgroup.kill written";
    return result;
  }

 private:
  std::filesystem::path proc_root_;
};

}  // namespace

std::unique_ptr<EvictionAction> make_kill_action(const config::EvictionConfig&) {
  return make_kill_action_at("/proc");
}

std::unique_ptr<EvictionAction> make_kill_action_at(std::filesystem::path proc_root) {
  return std::make_unique<KillAction>(std::move(proc_root));
}

}  // namespace nb::eviction
