#include "daemon/codec/effect_json.hpp"

#include <initializer_list>

#include "base/time.hpp"
#include "daemon/codec/json_reader.hpp"

namespace nb::codec {

namespace reader = json_reader;

namespace {

constexpr std::string_view kNumbers[] = {"hot_before", "hot_after", "gap_before", "gap_after"};

core::RoundEffect read_numbers(const nlohmann::json& json, std::string_view path) {
  auto number = [&](std::string_view key) {
    return reader::read_number(reader::required_field(json, path, key), reader::child(path, key));
  };
  core::RoundEffect effect;
  effect.improved = reader::read_bool(reader::required_field(json, path, "improved"),
                                      reader::child(path, "improved"));
  effect.hot_before = number(kNumbers[0]);
  effect.hot_after = number(kNumbers[1]);
  effect.gap_before = number(kNumbers[2]);
  effect.gap_after = number(kNumbers[3]);
  if (const auto* per_gib = reader::optional_field(json, "traffic_per_gib")) {
    effect.traffic_per_gib = reader::read_number(*per_gib, reader::child(path, "traffic_per_gib"));
  }
  return effect;
}

}  // namespace

nlohmann::json to_json(const core::RoundEffect& effect) {
  nlohmann::json json = {{"improved", effect.improved},
                         {"hot_before", effect.hot_before},
                         {"hot_after", effect.hot_after},
                         {"gap_before", effect.gap_before},
                         {"gap_after", effect.gap_after}};
  if (effect.traffic_per_gib) {
    json["traffic_per_gib"] = *effect.traffic_per_gib;
  }
  return json;
}

nlohmann::json to_json(const core::MeasuredEffect& measured, std::optional<TimePoint> when) {
  nlohmann::json json = to_json(measured.effect);
  json["source_latency_before"] = measured.source_latency_before;
  json["source_latency_after"] = measured.source_latency_after;
  json["bytes_moved"] = measured.bytes_moved;
  json["measured"] = when ? nlohmann::json(format_rfc3339(*when)) : nlohmann::json();
  return json;
}

core::RoundEffect read_round_effect(const nlohmann::json& json, std::string_view path) {
  reader::require_object(json, path);
  reader::check_keys(
      json, path,
      {"improved", "hot_before", "hot_after", "gap_before", "gap_after", "traffic_per_gib"});
  return read_numbers(json, path);
}

ReadMeasuredEffect read_measured_effect(const nlohmann::json& json, std::string_view path) {
  reader::require_object(json, path);
  reader::check_keys(
      json, path,
      {"improved", "hot_before", "hot_after", "gap_before", "gap_after", "traffic_per_gib",
       "source_latency_before", "source_latency_after", "bytes_moved", "measured"});
  ReadMeasuredEffect out;
  out.measured.effect = read_numbers(json, path);
  auto number = [&](std::string_view key) {
    return reader::read_number(reader::required_field(json, path, key), reader::child(path, key));
  };
  out.measured.source_latency_before = number("source_latency_before");
  out.measured.source_latency_after = number("source_latency_after");
  out.measured.bytes_moved = reader::read_bytes(reader::required_field(json, path, "bytes_moved"),
                                                reader::child(path, "bytes_moved"));
  if (const auto* when = reader::optional_field(json, "measured")) {
    out.when = reader::read_time(*when, reader::child(path, "measured"));
  }
  return out;
}

}  // namespace nb::codec
