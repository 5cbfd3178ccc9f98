#pragma once
// Where the next batch goes. Destinations come in decision order and share the work in
// proportion to their free memory above a floor (min_free_bytes, by default the larger of 1 GiB
// and 2% of the node): the emptier node takes more. One that answers ENOMEM or whose free memory
// falls to its floor is dropped; the others carry on.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "actuator/memory_syscalls.hpp"
#include "base/units.hpp"

namespace nb::actuator {

Bytes default_min_free_bytes(Bytes node_total);

struct Destination {
  NodeId node = 0;
  Bytes floor = 0;
  Bytes free = 0;
  Bytes initial_headroom = 0;  // free above the floor when the job started: the node's weight
  Bytes assigned = 0;          // bytes moved there so far
  bool dropped = false;
  std::string drop_reason;

  Bytes headroom() const { return free > floor ? free - floor : 0; }
};

struct Pick {
  NodeId node = 0;
  Bytes allowance = 0;  // how much the node may still take before reaching its floor
};

class DestinationPicker {
 public:
  DestinationPicker(std::vector<NodeId> order, std::optional<Bytes> min_free_bytes);

  // Re-reads free memory; drops nodes that do not exist or sit at their floor.
  void refresh(MemorySyscalls& syscalls);
  // The next destination outside `excluded`, or nullopt when none can take anything.
  std::optional<Pick> pick(std::span<const NodeId> excluded) const;
  void record_moved(NodeId node, Bytes bytes);
  void drop(NodeId node, std::string reason);

  const std::vector<Destination>& destinations() const { return destinations_; }

 private:
  Destination* find(NodeId node);

  std::vector<Destination> destinations_;
  std::optional<Bytes> min_free_bytes_;
  bool refreshed_ = false;
};

}  // namespace nb::actuator
