#include "daemon/config/config_json.hpp"

#include <cstdio>

#include "base/parse_units.hpp"
#include "daemon/config/keys.hpp"

namespace nb::config {

nlohmann::json value_json(const std::string& value) {
  return value;
}

nlohmann::json value_json(bool value) {
  return value;
}

nlohmann::json value_json(int value) {
  return value;
}

nlohmann::json value_json(double value) {
  return value;
}

nlohmann::json value_json(Bytes value) {
  return exact_size_text(value);
}

nlohmann::json value_json(const std::optional<Bytes>& value) {
  return value ? value_json(*value) : nlohmann::json("auto");
}

nlohmann::json value_json(Duration value) {
  return exact_duration_text(value);
}

nlohmann::json value_json(const std::vector<std::string>& value) {
  return value;
}

nlohmann::json value_json(unsigned file_mode) {
  char text[16];
  std::snprintf(text, sizeof text, "%04o", file_mode);
  return text;
}

nlohmann::json value_json(const std::optional<std::vector<NodeId>>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json("auto");
}

nlohmann::json value_json(core::Strategy strategy) {
  return core::to_string(strategy);
}

nlohmann::json value_json(core::ThresholdMode mode) {
  return core::to_string(mode);
}

nlohmann::json value_json(const std::map<NodeId, double>& value) {
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [node, ns] : value) {
    object[std::to_string(node)] = ns;
  }
  return object;
}

nlohmann::json policy_json(const core::PolicyConfig& policy) {
  return section_json(policy_keys(), policy);
}

nlohmann::json effective_config_json(const Config& config) {
  nlohmann::json pools = nlohmann::json::array();
  for (const PoolConfig& pool : config.pools) {
    pools.push_back(section_json(pool_keys(), pool));
  }
  const MetricsConfig& metrics = config.metrics;
  nlohmann::json metrics_json = section_json(metrics_keys(), metrics);
  for_each_metrics_section(metrics, [&](std::string_view name, auto keys, const auto& section) {
    metrics_json[std::string(name)] = section_json(keys, section);
  });
  return {
      {"daemon", section_json(daemon_keys(), config.daemon)},
      {"admin", section_json(admin_keys(), config.admin)},
      {"policy", policy_json(config.policy)},
      {"pool", pools},
      {"metrics", metrics_json},
      {"actuator", section_json(actuator_keys(), config.actuator)},
      {"eviction", section_json(eviction_keys(), config.eviction)},
      {"export", section_json(export_keys(), config.export_)},
  };
}

}  // namespace nb::config
