#pragma once
// Config values as JSON, written as in the TOML file: sizes "512MiB", durations "30s", a file mode
// "0660", an unset optional "auto". The `config` admin command shows the effective configuration
// this way, and a snapshot carries its [policy] this way so that `plan` can read it back.

#include <nlohmann/json.hpp>

#include <variant>

#include "core/policy_config.hpp"
#include "daemon/config/config.hpp"
#include "daemon/config/key_table.hpp"

namespace nb::config {

// One value, by its kind.
nlohmann::json value_json(const std::string& value);
nlohmann::json value_json(bool value);
nlohmann::json value_json(int value);
nlohmann::json value_json(double value);
nlohmann::json value_json(Bytes value);
nlohmann::json value_json(const std::optional<Bytes>& value);
nlohmann::json value_json(Duration value);
nlohmann::json value_json(const std::vector<std::string>& value);
nlohmann::json value_json(unsigned file_mode);
nlohmann::json value_json(const std::optional<std::vector<NodeId>>& value);
nlohmann::json value_json(core::Strategy strategy);                // "katalyst", "equalize"
nlohmann::json value_json(core::ThresholdMode mode);               // "auto", "absolute", "relative"
nlohmann::json value_json(const std::map<NodeId, double>& value);  // {"0": 92.0}

// A section: an object with one member per row of its table.
template <typename S>
nlohmann::json section_json(KeyTable<S> keys, const S& values) {
  nlohmann::json object = nlohmann::json::object();
  for (const Key<S>& key : keys) {
    std::visit([&](auto member) { object[std::string(key.name)] = value_json(values.*member); },
               key.member);
  }
  return object;
}

// [policy] alone.
nlohmann::json policy_json(const core::PolicyConfig& policy);

// Every section, keyed by its TOML name; [[pool]] is the array "pool".
nlohmann::json effective_config_json(const Config& config);

}  // namespace nb::config
