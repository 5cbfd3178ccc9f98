#include "daemon/codec/baseline_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace nb::codec {
namespace {

using nlohmann::json;

std::int64_t unix_ms(TimePoint time) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
}

Result<NodeId> node_id_from(const std::string& text) {
  NodeId id = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, id);
  if (text.empty() || error != std::errc{} || stop != end || id < 0) {
    return make_error(0, "baselines.nodes: \"" + text + "\" is not a node id");
  }
  return id;
}

Result<std::pair<TimePoint, double>> reading_from(const json& item, const std::string& path) {
  if (!item.is_array() || item.size() != 2 || !item[0].is_number_integer() ||
      !item[1].is_number()) {
    return make_error(0, path + ": a reading is [unix_ms, ns], got " + item.dump());
  }
  const double ns = item[1].get<double>();
  if (!std::isfinite(ns) || ns <= 0) {
    return make_error(0, path + ": a latency must be above 0 ns, got " + item[1].dump());
  }
  // A TimePoint counts nanoseconds in 64 bits: milliseconds beyond about ±292 years from 1970
  // would overflow it (found by fuzz_state_journal).
  constexpr std::int64_t kMaxMs =
      std::chrono::duration_cast<std::chrono::milliseconds>(TimePoint::duration::max()).count();
  const bool in_range = item[0].is_number_unsigned()
                            ? item[0].get<std::uint64_t>() <= static_cast<std::uint64_t>(kMaxMs)
                            : item[0].get<std::int64_t>() >= -kMaxMs;
  if (!in_range) {
    return make_error(0, path + ": a reading's time is out of range, got " + item[0].dump());
  }
  const TimePoint time{std::chrono::milliseconds(item[0].get<std::int64_t>())};
  return std::make_pair(time, ns);
}

}  // namespace

json to_json(const SavedBaselines& saved) {
  json nodes = json::object();
  for (const auto& [node, readings] : saved.readings) {
    json list = json::array();
    for (const auto& [time, ns] : readings) {
      list.push_back(json::array({unix_ms(time), ns}));
    }
    nodes[std::to_string(node)] = std::move(list);
  }
  return {{"provider", saved.provider},
          {"kind", std::string(core::to_string(saved.kind))},
          {"nodes", std::move(nodes)}};
}

Result<SavedBaselines> baselines_from_json(const json& json) {
  if (!json.is_object()) {
    return make_error(0, "baselines: not a JSON object");
  }
  SavedBaselines saved;
  auto provider = json.find("provider");
  if (provider == json.end() || !provider->is_string()) {
    return make_error(0, "baselines.provider: not a string");
  }
  saved.provider = provider->get<std::string>();
  auto kind = json.find("kind");
  if (kind == json.end() || !kind->is_string()) {
    return make_error(0, "baselines.kind: not a string");
  }
  auto known = core::latency_kind_from(kind->get<std::string>());
  if (!known) {
    return make_error(0,
                      "baselines.kind: unknown latency kind \"" + kind->get<std::string>() + "\"");
  }
  saved.kind = *known;
  auto nodes = json.find("nodes");
  if (nodes == json.end() || !nodes->is_object()) {
    return make_error(0, "baselines.nodes: not a JSON object");
  }
  for (const auto& item : nodes->items()) {
    auto node = node_id_from(item.key());
    if (!node) {
      return node.error();
    }
    const std::string path = "baselines.nodes." + item.key();
    if (!item.value().is_array()) {
      return make_error(0, path + ": not an array of readings");
    }
    auto& readings = saved.readings[*node];
    for (const auto& reading : item.value()) {
      auto parsed = reading_from(reading, path);
      if (!parsed) {
        return parsed.error();
      }
      readings.push_back(*parsed);
    }
  }
  return saved;
}

}  // namespace nb::codec
