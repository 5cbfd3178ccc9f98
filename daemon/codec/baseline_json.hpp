#pragma once
// The readings behind learned baselines, as the state file keeps them so that a restart does not
// learn from scratch:
//   "baselines": {"provider": "probe", "kind": "load_to_use",
//                 "nodes": {"0": [[1733390000000, 92.5], ...], "1": [...]}}
// Each reading is [unix time in ms, ns], oldest first. The provider and kind say what unit the
// readings are in: the daemon drops them when either no longer matches the one that answers.

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "base/units.hpp"
#include "core/latency_kind.hpp"

namespace nb::codec {

struct SavedBaselines {
  std::string provider;
  core::LatencyKind kind = core::LatencyKind::memory_controller_queue;
  std::map<NodeId, std::vector<std::pair<TimePoint, double>>> readings;

  bool operator==(const SavedBaselines&) const = default;
};

nlohmann::json to_json(const SavedBaselines& saved);
// Every part is checked: a malformed one is an error naming it, never half a result.
Result<SavedBaselines> baselines_from_json(const nlohmann::json& json);

}  // namespace nb::codec
