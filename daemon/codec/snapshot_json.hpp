#pragma once
// The snapshot document: what `numabalancerd snapshot` prints for the live host and what
// `numabalancerd plan --snapshot` reads. One file is a self-contained test case: the host, the
// history of earlier rounds and any [policy] overrides. Unknown keys are errors everywhere but in
// `meta`, which is carried and never interpreted.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "base/units.hpp"
#include "core/history.hpp"
#include "core/policy_config.hpp"
#include "core/snapshot.hpp"
#include "daemon/codec/policy_overrides.hpp"  // read back a document's policy_overrides

namespace nb::codec {

struct SnapshotDocument {
  core::Snapshot snapshot;
  core::History history;
  nlohmann::json policy_overrides = nlohmann::json::object();  // "config": {"policy": {...}}
  nlohmann::json meta = nlohmann::json::object();
};

// `default_time` stands in for an absent "time". Errors name the JSON path of the bad field, e.g.
// "nodes[1].distance: missing node 2".
Result<SnapshotDocument> parse_snapshot(std::string_view json_text, TimePoint default_time);
nlohmann::json to_json(const SnapshotDocument& document);

// A node, a pool and a container as the snapshot document writes them; `topology` and
// `containers` replies write the same objects and add their own fields.
nlohmann::json to_json(const core::Node& node);
nlohmann::json to_json(const core::Pool& pool);
nlohmann::json to_json(const core::Container& container);

}  // namespace nb::codec
