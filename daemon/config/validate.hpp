#pragma once
// The one set of rules every configuration must satisfy, whatever it came from (a file at start-up
// or reload, a snapshot's `config.policy` overrides). Problems name their key; the loader adds
// the line and column.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/policy_config.hpp"
#include "daemon/config/config.hpp"
#include "daemon/config/extension_names.hpp"
#include "daemon/config/problem.hpp"

namespace nb::config {

// Whether the user wrote a dotted key ("policy.reclaim_round_max_bytes"), so that a rule between
// two keys is reported on the one the user set, with the other's default and the fix.
using WrittenKey = std::function<bool(std::string_view key)>;
bool every_key_written(std::string_view key);

// Every problem at once, in section order. Provider and action names must be among `names`.
std::vector<ConfigProblem> validate_config(const Config& config, const ExtensionNames& names,
                                           const WrittenKey& written = every_key_written);

// The [policy] rules alone; keys are "policy.<key>" and lines are 0.
std::vector<ConfigProblem> validate_policy(const core::PolicyConfig& policy,
                                           const WrittenKey& written = every_key_written);

// When the window holds more readings at this interval than a node keeps, what the baseline is
// really learned over (24h at 1s is the last 2h24m); said by --check-config and at start-up.
std::optional<std::string> baseline_window_note(const Config& config);

// trace, debug, info, warn, error, critical, off.
bool is_valid_log_level(std::string_view level);

}  // namespace nb::config
