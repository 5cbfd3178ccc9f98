#include "daemon/codec/decision_json.hpp"

#include <string>

#include "daemon/codec/json_reader.hpp"

namespace nb::codec {

namespace reader = json_reader;
using nlohmann::json;

namespace {

template <typename Json>
Json optional_number(const std::optional<double>& value) {
  return value ? Json(*value) : Json(nullptr);
}

// {"nodes": [{"node", "latency_before_ns", "latency_after_ns", "bandwidth_before_gbps",
//  "bandwidth_after_gbps", "learned_curve"}], "traffic_per_gib", "service_latency_before_ns",
//  "service_latency_after_ns"}
template <typename Json>
Json prediction_json(const core::Prediction& prediction) {
  Json nodes = Json::array();
  for (const core::NodePrediction& node : prediction.nodes) {
    nodes.push_back({{"node", node.node},
                     {"latency_before_ns", node.latency_before_ns},
                     {"latency_after_ns", node.latency_after_ns},
                     {"bandwidth_before_gbps", node.bandwidth_before_gbps},
                     {"bandwidth_after_gbps", node.bandwidth_after_gbps},
                     {"learned_curve", node.learned_curve}});
  }
  return Json{
      {"nodes", std::move(nodes)},
      {"traffic_per_gib", prediction.traffic_per_gib},
      {"service_latency_before_ns", optional_number<Json>(prediction.service_latency_before_ns)},
      {"service_latency_after_ns", optional_number<Json>(prediction.service_latency_after_ns)}};
}

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
  // Only equalize's decisions name their strategy, so the seed's read as they always have.
  if (decision.strategy != core::Strategy::katalyst) {
    document["strategy"] = core::to_string(decision.strategy);
  }
  if (decision.prediction) {
    document["prediction"] = prediction_json<Json>(*decision.prediction);
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

std::optional<double> read_optional_number(const json& object, std::string_view key) {
  if (const auto* value = reader::optional_field(object, key)) {
    return reader::read_number(*value, reader::child("prediction", key));
  }
  return std::nullopt;
}

core::Prediction read_prediction(const json& value) {
  const std::string_view root = "prediction";
  reader::require_object(value, root);
  reader::check_keys(
      value, root,
      {"nodes", "traffic_per_gib", "service_latency_before_ns", "service_latency_after_ns"});
  core::Prediction prediction;
  const json& nodes = field(value, root, "nodes");
  reader::require_array(nodes, "prediction.nodes");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string path = reader::item("prediction.nodes", i);
    const json& node = nodes[i];
    reader::require_object(node, path);
    reader::check_keys(node, path,
                       {"node", "latency_before_ns", "latency_after_ns", "bandwidth_before_gbps",
                        "bandwidth_after_gbps", "learned_curve"});
    auto number = [&](std::string_view key) {
      return reader::read_number(field(node, path, key), reader::child(path, key));
    };
    prediction.nodes.push_back(core::NodePrediction{
        reader::read_node_id(field(node, path, "node"), reader::child(path, "node")),
        number("latency_before_ns"), number("latency_after_ns"), number("bandwidth_before_gbps"),
        number("bandwidth_after_gbps"),
        reader::read_bool(field(node, path, "learned_curve"),
                          reader::child(path, "learned_curve"))});
  }
  prediction.traffic_per_gib =
      reader::read_number(field(value, root, "traffic_per_gib"), "prediction.traffic_per_gib");
  prediction.service_latency_before_ns = read_optional_number(value, "service_latency_before_ns");
  prediction.service_latency_after_ns = read_optional_number(value, "service_latency_after_ns");
  return prediction;
}

core::Decision read_decision(const json& json) {
  using core::BandwidthLevel;
  using core::DecisionStatus;
  using core::PressureLevel;
  using core::ThresholdMode;
  const std::string_view root = "decision";
  reader::require_object(json, root);
  reader::check_keys(json, "",
                     {"status", "reason", "level", "thresholds", "bandwidth_level",
                      "bandwidth_pressure", "source_node", "dest_nodes", "migrate", "evict",
                      "total_bytes", "threshold", "explanation", "strategy", "prediction"});
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
  if (const auto* strategy = reader::optional_field(json, "strategy")) {
    static constexpr core::Strategy strategies[] = {core::Strategy::katalyst,
                                                    core::Strategy::equalize};
    decision.strategy = read_enum(*strategy, "strategy", strategies);
  }
  if (const auto* prediction = reader::optional_field(json, "prediction")) {
    decision.prediction = read_prediction(*prediction);
  }
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
