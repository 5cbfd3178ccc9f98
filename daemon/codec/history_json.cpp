#include "daemon/codec/history_json.hpp"

#include "base/time.hpp"
#include "daemon/codec/effect_json.hpp"
#include "daemon/codec/json_reader.hpp"
#include "daemon/codec/snapshot_json.hpp"

namespace nb::codec {

namespace reader = json_reader;

nlohmann::json to_json(const core::Round& round) {
  nlohmann::json json = {
      {"time", format_rfc3339(round.time)}, {"source_node", nullptr},
      {"dest_nodes", round.dest_nodes},     {"migrated", round.migrated},
      {"evicted", round.evicted},
  };
  if (round.source_node) {
    json["source_node"] = *round.source_node;
  }
  if (round.effect) {
    json["effect"] = to_json(*round.effect);
  }
  return json;
}

Result<core::Round> round_from_json(const nlohmann::json& json, std::string_view path) {
  return reader::catching([&] {
    reader::require_object(json, path);
    reader::check_keys(json, path,
                       {"time", "source_node", "dest_nodes", "migrated", "evicted", "effect"});
    core::Round round;
    round.time =
        reader::read_time(reader::required_field(json, path, "time"), reader::child(path, "time"));
    if (const auto* source = reader::optional_field(json, "source_node")) {
      round.source_node = reader::read_node_id(*source, reader::child(path, "source_node"));
    }
    if (const auto* dests = reader::optional_field(json, "dest_nodes")) {
      const std::string dests_path = reader::child(path, "dest_nodes");
      reader::require_array(*dests, dests_path);
      for (std::size_t i = 0; i < dests->size(); ++i) {
        round.dest_nodes.push_back(reader::read_node_id((*dests)[i], reader::item(dests_path, i)));
      }
    }
    round.migrated = reader::read_bool(reader::required_field(json, path, "migrated"),
                                       reader::child(path, "migrated"));
    round.evicted = reader::read_bool(reader::required_field(json, path, "evicted"),
                                      reader::child(path, "evicted"));
    if (const auto* effect = reader::optional_field(json, "effect")) {
      round.effect = read_round_effect(*effect, reader::child(path, "effect"));
    }
    return round;
  });
}

}  // namespace nb::codec
