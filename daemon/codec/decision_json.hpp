#pragma once
// The decision document `plan` prints and the admin API serves (shape in issue 3): status,
// reason, level, bandwidth_level (null when not computed), bandwidth_pressure, source_node (null
// when none), dest_nodes, migrate (in actuator order), evict, total_bytes, threshold.

#include <nlohmann/json.hpp>
#include <string>

#include "base/result.hpp"
#include "core/decision.hpp"

namespace nb::codec {

enum class ExplanationField { omit, include };

// With ExplanationField::include the document also carries "explanation": [lines].
nlohmann::json to_json(const core::Decision& decision,
                       ExplanationField explanation = ExplanationField::omit);
// The same document as indented text with its keys in the order above (status first), which is
// how `plan` prints it for people and diffs.
std::string format_decision(const core::Decision& decision,
                            ExplanationField explanation = ExplanationField::omit);
// Accepts an optional "explanation"; errors name the JSON path ("migrate[0].bytes_on_source: ...").
Result<core::Decision> decision_from_json(const nlohmann::json& json);

}  // namespace nb::codec
