#pragma once
// The process a job is working on, as the walk and the mover share it: the pinned process, the
// pages the walk found on the source and the mover has yet to move, the destinations its cpuset
// refused, and whether it is done (vanished, or failed in a way that leaves nothing more to try).

#include <vector>

#include "actuator/migration_report.hpp"
#include "actuator/page_queue.hpp"
#include "actuator/pinned_process.hpp"
#include "base/units.hpp"

namespace nb::actuator {

struct ProcessMove {
  int pid = 0;
  PinnedProcess* pinned = nullptr;
  PageQueue pending;
  std::vector<NodeId> refused;
  bool done = false;

  // One object serves every process of a job, so the queue's storage is reused.
  void start(PinnedProcess& process) {
    pid = process.pid();
    pinned = &process;
    pending.clear();
    refused.clear();
    done = false;
  }

  // Asked before and after every call on the process. False once the pid no longer names the
  // pinned process or it left its cgroup: the process is then done and reported vanished, and
  // nothing more of it is touched.
  bool confirm(ProcessReport& report) {
    if (pinned != nullptr && pinned->still_same()) {
      return true;
    }
    report.vanished = true;
    done = true;
    pending.clear();
    return false;
  }
};

}  // namespace nb::actuator
