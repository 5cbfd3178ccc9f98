#pragma once
// The effective [policy] as the snapshot's "config.policy" object, so that `plan` on a snapshot
// uses the thresholds the daemon that took it was running with. Keys, sizes and durations are
// written as in the TOML file ("128MiB", "30s"), which codec::apply_policy_overrides reads back.

#include <nlohmann/json.hpp>

#include "core/policy_config.hpp"

namespace nb::host {

nlohmann::json policy_overrides_json(const core::PolicyConfig& policy);

}  // namespace nb::host
