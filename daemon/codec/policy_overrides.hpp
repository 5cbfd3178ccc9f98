#pragma once
// A snapshot's "config": {"policy": {...}}: the [policy] a snapshot was taken with, so that `plan`
// on it uses the daemon's thresholds. Keys, sizes and durations are written as in the TOML file
// ("128MiB", "30s"); read back, a size may also be an integer of bytes. Both directions walk
// config::policy_keys(), so a new [policy] key needs nothing here.

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "core/policy_config.hpp"

namespace nb::codec {

nlohmann::json policy_overrides_json(const core::PolicyConfig& policy);

// Applies the overrides onto `base`, then validates the result. Errors name the path
// ("config.policy.grace_gap_ratio: ...").
Result<core::PolicyConfig> apply_policy_overrides(core::PolicyConfig base,
                                                  const nlohmann::json& overrides);

// Keys and types only, for the snapshot reader; fails with a json_reader::PathError.
core::PolicyConfig assign_policy_overrides(core::PolicyConfig policy,
                                           const nlohmann::json& overrides);

}  // namespace nb::codec
