#pragma once
// One acted round as the snapshot's "history" lists it:
// {"time": "...", "source_node": 1, "dest_nodes": [0], "migrated": true, "evicted": false}.
// "time", "migrated" and "evicted" are required; "source_node" may be null or absent, and
// "dest_nodes" absent (no destinations). "effect" is optional (absent or null: not measured):
// {"improved": false, "hot_before": 150, "hot_after": 148, "gap_before": 50, "gap_after": 47}.

#include <nlohmann/json.hpp>
#include <string_view>

#include "base/result.hpp"
#include "core/history.hpp"

namespace nb::codec {

nlohmann::json to_json(const core::Round& round);
// `path` prefixes error messages, e.g. "history[2]" gives "history[2].time: missing".
Result<core::Round> round_from_json(const nlohmann::json& json, std::string_view path);

}  // namespace nb::codec
