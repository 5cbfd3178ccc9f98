#pragma once
// A round's effect in JSON. The snapshot's history and the policy need only the five numbers
// core::RoundEffect holds:
//   {"improved": false, "hot_before": 150, "hot_after": 148, "gap_before": 50, "gap_after": 47}
// The state file, the history command and the audit log keep the whole measurement: those five
// plus "source_latency_before", "source_latency_after", "bytes_moved" and "measured" (the time
// of the snapshot it was measured from).

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "base/units.hpp"
#include "core/history.hpp"
#include "core/round_effect.hpp"

namespace nb::codec {

nlohmann::json to_json(const core::RoundEffect& effect);
nlohmann::json to_json(const core::MeasuredEffect& measured, std::optional<TimePoint> when);

// Throw json_reader's errors, prefixed by `path`: call them inside json_reader::catching.
core::RoundEffect read_round_effect(const nlohmann::json& json, std::string_view path);
struct ReadMeasuredEffect {
  core::MeasuredEffect measured;
  std::optional<TimePoint> when;
};
ReadMeasuredEffect read_measured_effect(const nlohmann::json& json, std::string_view path);

}  // namespace nb::codec
