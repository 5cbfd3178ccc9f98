#include "daemon/eviction/exec_action.hpp"

#include <sys/wait.h>

#include <cerrno>

#include "daemon/eviction/run_command.hpp"

namespace nb::eviction {
namespace {

class ExecAction : public EvictionAction {
 public:
  explicit ExecAction(const config::EvictionConfig& config)
      : argv_(config.exec), timeout_(config.timeout) {}

  Result<EvictionResult> evict(const EvictionRequest& request,
                               EvictionResult result) const override {
    if (argv_.empty()) {
      return make_error(EINVAL, "[eviction] exec is empty");
    }
    // Nothing of the daemon's environment (NOTIFY_SOCKET, credentials of its unit) but PATH.
    auto ran = run_command(argv_,
                           child_environment({"NUMABALANCER_CGROUP=" + request.cgroup_dir.string(),
                                              "NUMABALANCER_NODE=" + std::to_string(request.node),
                                              "NUMABALANCER_REASON=" + request.reason}),
                           timeout_);
    if (!ran) {
      return ran.error();
    }
    result.acted = true;
    result.exit_status = ran->exit_status;
    if (ran->timed_out) {
      return make_error(ETIMEDOUT, "eviction command " + argv_.front() + " timed out");
    }
    if (!WIFEXITED(ran->exit_status) || WEXITSTATUS(ran->exit_status) != 0) {
      return make_error(0, "eviction command " + argv_.front() + " failed (status " +
                               std::to_string(ran->exit_status) + ")");
    }
    result.detail = "command exited 0";
    return result;
  }

 private:
  std::vector<std::string> argv_;
  Duration timeout_;
};

}  // namespace

std::unique_ptr<EvictionAction> make_exec_action(const config::EvictionConfig& config) {
  return std::make_unique<ExecAction>(config);
}

}  // namespace nb::eviction
