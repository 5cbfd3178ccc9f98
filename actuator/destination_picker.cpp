#include "actuator/destination_picker.hpp"

#include <algorithm>

namespace nb::actuator {

Bytes default_min_free_bytes(Bytes node_total) {
  return std::max<Bytes>(kGiB, node_total / 50);
}

DestinationPicker::DestinationPicker(std::vector<NodeId> order, std::optional<Bytes> min_free_bytes)
    : min_free_bytes_(min_free_bytes) {
  for (NodeId node : order) {
    if (find(node) == nullptr) {
      Destination destination;
      destination.node = node;
      destinations_.push_back(std::move(destination));
    }
  }
}

Destination* DestinationPicker::find(NodeId node) {
  auto it = std::find_if(destinations_.begin(), destinations_.end(),
                         [node](const Destination& d) { return d.node == node; });
  return it == destinations_.end() ? nullptr : &*it;
}

void DestinationPicker::refresh(MemorySyscalls& syscalls) {
  for (auto& destination : destinations_) {
    if (destination.dropped) {
      continue;
    }
    auto memory = syscalls.node_memory(destination.node);
    if (!memory.ok()) {
      destination.dropped = true;
      destination.drop_reason = memory.error().message();
      continue;
    }
    destination.floor = min_free_bytes_.value_or(default_min_free_bytes(memory->total_bytes));
    destination.free = memory->free_bytes;
    if (!refreshed_) {
      destination.initial_headroom = destination.headroom();
    }
    if (destination.headroom() <= 0) {
      destination.dropped = true;
      destination.drop_reason = "free memory at or below its floor of " +
                                std::to_string(destination.floor / kMiB) + " MiB";
    }
  }
  refreshed_ = true;
}

std::optional<Pick> DestinationPicker::pick(std::span<const NodeId> excluded) const {
  const Destination* best = nullptr;
  double best_share = 0;
  for (const auto& destination : destinations_) {
    if (destination.dropped || destination.headroom() <= 0 ||
        std::find(excluded.begin(), excluded.end(), destination.node) != excluded.end()) {
      continue;
    }
    // The fill share: how much of its starting headroom a node has taken. Lowest goes next;
    // ties keep the decision's order.
    double weight = static_cast<double>(std::max<Bytes>(destination.initial_headroom, 1));
    double share = static_cast<double>(destination.assigned) / weight;
    if (best == nullptr || share < best_share) {
      best = &destination;
      best_share = share;
    }
  }
  if (best == nullptr) {
    return std::nullopt;
  }
  return Pick{best->node, best->headroom()};
}

void DestinationPicker::record_moved(NodeId node, Bytes bytes) {
  if (auto* destination = find(node)) {
    destination->assigned += bytes;
    destination->free -= bytes;
  }
}

void DestinationPicker::drop(NodeId node, std::string reason) {
  if (auto* destination = find(node); destination != nullptr && !destination->dropped) {
    destination->dropped = true;
    destination->drop_reason = std::move(reason);
  }
}

}  // namespace nb::actuator
