#include "daemon/codec/decision_json.hpp"

#include <string>

#include "daemon/codec/json_reader.hpp"

namespace nb::codec {

namespace reader = json_reader;
using nlohmann::json;

namespace {

// Built for both JSON flavours: nlohmann::json (sorted keys) for code, ordered_json for people.
template <typename Json>
Json build(const core::Decision& decision, ExplanationField explanation) {
  Json migrate = Json::array();
  for (const core::ContainerMove& move : decision.migrate) {
    migrate.push_back({{"id", move.id},
                       {"bytes_on_source", move.bytes_on_source},
                       {"dest_nodes", move.dest_nodes}});
  }
  Json evict = Json::array();
  for (const core::ContainerEviction& eviction : decision.evict) {
    evict.push_back({{"id", eviction.id}, {"bytes_on_source", eviction.bytes_on_source}});
  }
  Json document = {
      {"status", core::to_string(decision.status)},
      {"reason", decision.reason},
      {"level", core::to_string(decision.level)},
      {"thresholds", nullptr},
      {"bandwidth_level", nullptr},
      {"bandwidth_pressure", decision.bandwidth_pressure},
      {"source_node", nullptr},
      {"dest_nodes", decision.dest_nodes},
      {"migrate", std::move(migrate)},
      {"evict", std::move(evict)},
      {"total_bytes", decision.total_bytes},
      {"threshold", decision.threshold},
  };
  if (decision.thresholds) {
    document["thresholds"] = core::to_string(*decision.thresholds);
  }
  if (decision.bandwidth_level) {
    document["bandwidth_level"] = core::to_string(*decision.bandwidth_level);
  }
  if (decision.source_node) {
    document["source_node"] = *decision.source_node;
  }
  if (explanation == ExplanationField::include) {
    document["explanation"] = decision.explanation;
  }
  return document;
}

}  // namespace

nlohmann::json to_json(const core::Decision& decision, ExplanationField explanation) {
  return build<nlohmann::json>(decision, explanation);
}

std::string format_decision(const core::Decision& decision, ExplanationField explanation) {
  return build<nlohmann::ordered_json>(decision, explanation).dump(2);
}

namespace {

// The name as core::to_string spells it, back to the enum.
template <typename Enum, std::size_t N>
Enum read_enum(const json& value, std::string_view path, const Enum (&values)[N]) {
  const std::string text = reader::read_string(value, path);
  std::string accepted;
  for (Enum candidate : values) {
    if (core::to_string(candidate) == text) {
      return candidate;
    }
    accepted += (accepted.empty() ? "" : ", ") + std::string(core::to_string(candidate));
  }
  reader::fail(path, "unknown value \"" + text + "\" (expected one of " + accepted + ")");
}

std::vector<NodeId> read_nodes(const json& value, std::string_view path) {
  reader::require_array(value, path);
  std::vector<NodeId> nodes;
  for (std::size_t i = 0; i < value.size(); ++i) {
    nodes.push_back(reader::read_node_id(value[i], reader::item(path, i)));
  }
  return nodes;
}

const json& field(const json& object, std::string_view path, std::string_view key) {
  return reader::required_field(object, path, key);
}

core::Decision read_decision(const json& json) {
  using core::BandwidthLevel;
  using core::DecisionStatus;
  using core::PressureLevel;
  using core::ThresholdMode;
  const std::string_view root = "decision";
  reader::require_object(json, root);
  reader::check_keys(
      json, "",
      {"status", "reason", "level", "thresholds", "bandwidth_level", "bandwidth_pressure",
       "source_node", "dest_nodes", "migrate", "evict", "total_bytes", "threshold", "explanation"});
  core::Decision decision;
  static constexpr DecisionStatus statuses[] = {
      DecisionStatus::ready,      DecisionStatus::idle,        DecisionStatus::cooldown,
      DecisionStatus::no_metrics, DecisionStatus::calibrating, DecisionStatus::failed};
  // "auto" is resolved before a decision is made, so a decision names one of the two.
  static constexpr ThresholdMode modes[] = {ThresholdMode::absolute, ThresholdMode::relative};
  static constexpr PressureLevel levels[] = {PressureLevel::none, PressureLevel::grace,
                                             PressureLevel::force};
  static constexpr BandwidthLevel bandwidths[] = {BandwidthLevel::high, BandwidthLevel::medium,
                                                  BandwidthLevel::low};
  decision.status = read_enum(field(json, "", "status"), "status", statuses);
  decision.reason = reader::read_string(field(json, "", "reason"), "reason");
  decision.level = read_enum(field(json, "", "level"), "level", levels);
  if (const auto* thresholds = reader::optional_field(json, "thresholds")) {
    decision.thresholds = read_enum(*thresholds, "thresholds", modes);
  }
  if (const auto* bandwidth = reader::optional_field(json, "bandwidth_level")) {
    decision.bandwidth_level = read_enum(*bandwidth, "bandwidth_level", bandwidths);
  }
  decision.bandwidth_pressure =
      reader::read_bool(field(json, "", "bandwidth_pressure"), "bandwidth_pressure");
  if (const auto* source = reader::optional_field(json, "source_node")) {
    decision.source_node = reader::read_node_id(*source, "source_node");
  }
  decision.dest_nodes = read_nodes(field(json, "", "dest_nodes"), "dest_nodes");

  const auto& migrate = field(json, "", "migrate");
  reader::require_array(migrate, "migrate");
  for (std::size_t i = 0; i < migrate.size(); ++i) {
    const std::string path = reader::item("migrate", i);
    reader::require_object(migrate[i], path);
    reader::check_keys(migrate[i], path, {"id", "bytes_on_source", "dest_nodes"});
    decision.migrate.push_back(core::ContainerMove{
        reader::read_string(field(migrate[i], path, "id"), reader::child(path, "id")),
        reader::read_bytes(field(migrate[i], path, "bytes_on_source"),
                           reader::child(path, "bytes_on_source")),
        read_nodes(field(migrate[i], path, "dest_nodes"), reader::child(path, "dest_nodes"))});
  }
  const auto& evict = field(json, "", "evict");
  reader::require_array(evict, "evict");
  for (std::size_t i = 0; i < evict.size(); ++i) {
    const std::string path = reader::item("evict", i);
    reader::require_object(evict[i], path);
    reader::check_keys(evict[i], path, {"id", "bytes_on_source"});
    decision.evict.push_back(core::ContainerEviction{
        reader::read_string(field(evict[i], path, "id"), reader::child(path, "id")),
        reader::read_bytes(field(evict[i], path, "bytes_on_source"),
                           reader::child(path, "bytes_on_source"))});
  }
  decision.total_bytes = reader::read_bytes(field(json, "", "total_bytes"), "total_bytes");
  decision.threshold = reader::read_number(field(json, "", "threshold"), "threshold");
  if (const auto* explanation = reader::optional_field(json, "explanation")) {
    reader::require_array(*explanation, "explanation");
    for (std::size_t i = 0; i < explanation->size(); ++i) {
      decision.explanation.push_back(
          reader::read_string((*explanation)[i], reader::item("explanation", i)));
    }
  }
  return decision;
}

}  // namespace

Result<core::Decision> decision_from_json(const nlohmann::json& json) {
  return reader::catching([&] { return read_decision(json); });
}

}  // namespace nb::codec
