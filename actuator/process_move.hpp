#pragma once
// The process a job is working on, as the walk and the mover share it: the pages the walk found
// on the source and the mover has yet to move, the destinations its cpuset refused, and whether
// it is done (vanished, or failed in a way that leaves nothing more to try).

#include <vector>

#include "actuator/page_queue.hpp"
#include "base/units.hpp"

namespace nb::actuator {

struct ProcessMove {
  int pid = 0;
  PageQueue pending;
  std::vector<NodeId> refused;
  bool done = false;

  // One object serves every process of a job, so the queue's storage is reused.
  void start(int new_pid) {
    pid = new_pid;
    pending.clear();
    refused.clear();
    done = false;
  }
};

}  // namespace nb::actuator
