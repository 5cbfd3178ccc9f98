#include "daemon/sim/output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "base/human_format.hpp"

namespace nb::sim {
namespace {

nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json effect_json(const EffectReport& report) {
  nlohmann::json json = {{"round_time", report.round_second}};
  if (const auto* measured = std::get_if<core::MeasuredEffect>(&report.effect)) {
    json["effect"] = {
        {"improved", measured->effect.improved},   {"hot_before", measured->effect.hot_before},
        {"hot_after", measured->effect.hot_after}, {"gap_before", measured->effect.gap_before},
        {"gap_after", measured->effect.gap_after}, {"bytes_moved", measured->bytes_moved}};
  } else {
    json["effect"] = nullptr;
    json["reason"] = std::get<std::string>(report.effect);
  }
  return json;
}

const Summary* off_summary(const ModeSummaries& modes) {
  for (const auto& [name, summary] : modes) {
    if (name == "off") {
      return &summary;
    }
  }
  return nullptr;
}

std::optional<double> ratio(const std::optional<double>& value, const std::optional<double>& off) {
  if (!value || !off || *off == 0) {
    return std::nullopt;
  }
  return *value / *off;
}

nlohmann::json mode_json(const Summary& summary, const Summary* off) {
  nlohmann::json json = {
      {"sensitive_latency_mean_ns", optional_number(summary.sensitive_latency_mean_ns)},
      {"sensitive_latency_max_ns", optional_number(summary.sensitive_latency_max_ns)},
      {"traffic_latency_mean_ns", optional_number(summary.traffic_latency_mean_ns)},
      {"bytes_moved", summary.bytes_moved},
      {"rounds_acted", summary.rounds_acted},
      {"rounds_by_status", summary.rounds_by_status},
      {"bytes_reversed", summary.bytes_reversed},
      {"final_latency_spread", optional_number(summary.final_latency_spread)},
      {"settle_seconds", optional_number(summary.settle_seconds)},
      {"rounds", summary.rounds},
      {"rounds_deferred", summary.rounds_deferred},
      {"effects", summary.effects},
  };
  nlohmann::json received = nlohmann::json::object();
  for (const auto& [node, bytes] : summary.bytes_received) {
    received[std::to_string(node)] = bytes;
  }
  json["bytes_received_by_node"] = received;
  if (off != nullptr) {
    json["ratio_to_off"] = {
        {"sensitive_latency_mean_ns",
         optional_number(ratio(summary.sensitive_latency_mean_ns, off->sensitive_latency_mean_ns))},
        {"sensitive_latency_max_ns",
         optional_number(ratio(summary.sensitive_latency_max_ns, off->sensitive_latency_max_ns))},
        {"traffic_latency_mean_ns",
         optional_number(ratio(summary.traffic_latency_mean_ns, off->traffic_latency_mean_ns))}};
  }
  return json;
}

}  // namespace

nlohmann::json round_json(std::string_view mode, const RoundReport& round) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const NodeReport& node : round.nodes) {
    nodes.push_back({{"id", node.id},
                     {"read_latency_ns", node.read_latency_ns},
                     {"bandwidth_gbps", node.bandwidth_gbps},
                     {"free_bytes", node.free_bytes},
                     {"baseline_read_latency_ns", optional_number(node.baseline_read_latency_ns)}});
  }
  const core::Decision& decision = *round.decision;
  nlohmann::json json = {{"mode", mode},
                         {"time", round.second},
                         {"nodes", std::move(nodes)},
                         {"status", core::to_string(decision.status)},
                         {"reason", decision.reason},
                         {"pressure", core::to_string(decision.level)},
                         {"outcome", round.outcome},
                         {"bytes_moved", round.bytes_moved},
                         {"source_node", nullptr},
                         {"dest_nodes", decision.dest_nodes},
                         {"planned_bytes", nullptr},
                         {"sensitive_latency_ns", optional_number(round.sensitive_latency_ns)},
                         {"traffic_latency_ns", optional_number(round.traffic_latency_ns)}};
  // Every line has the same keys, so that a run can be plotted or loaded as a table.
  if (decision.source_node) {
    json["source_node"] = *decision.source_node;
  }
  if (decision.status == core::DecisionStatus::ready) {
    json["planned_bytes"] = decision.total_bytes;
  }
  nlohmann::json effects = nlohmann::json::array();
  for (const EffectReport& effect : round.effects) {
    effects.push_back(effect_json(effect));
  }
  json["effects"] = std::move(effects);
  nlohmann::json containers = nlohmann::json::object();
  for (const auto& [id, bytes] : round.containers) {
    nlohmann::json by_node = nlohmann::json::object();
    for (const auto& [node, amount] : bytes) {
      by_node[std::to_string(node)] = amount;
    }
    containers[id] = std::move(by_node);
  }
  json["containers"] = std::move(containers);
  return json;
}

nlohmann::json summary_json(std::string_view scenario, const ModeSummaries& modes) {
  const Summary* off = off_summary(modes);
  nlohmann::json by_mode = nlohmann::json::object();
  for (const auto& [name, summary] : modes) {
    by_mode[name] = mode_json(summary, name == "off" ? nullptr : off);
  }
  return {{"summary", {{"scenario", scenario}, {"modes", std::move(by_mode)}}}};
}

namespace {

using Cell = std::function<std::string(const Summary&)>;

std::string latency_cell(const std::optional<double>& value, const std::optional<double>& off) {
  if (!value) {
    return "-";
  }
  std::string text = fmt::format("{:.1f}", *value);
  if (auto r = ratio(value, off)) {
    text += fmt::format(" ({:.2f}x)", *r);
  }
  return text;
}

std::string effect_count(const Summary& summary, const std::string& result) {
  auto it = summary.effects.find(result);
  return std::to_string(it == summary.effects.end() ? 0 : it->second);
}

}  // namespace

std::string summary_table(std::string_view scenario, const ModeSummaries& modes) {
  const Summary* off = off_summary(modes);
  std::vector<std::pair<std::string, Cell>> rows = {
      {"sensitive latency mean (ns)",
       [&](const Summary& s) {
         return latency_cell(s.sensitive_latency_mean_ns, off != nullptr && &s != off
                                                              ? off->sensitive_latency_mean_ns
                                                              : std::nullopt);
       }},
      {"sensitive latency max (ns)",
       [&](const Summary& s) {
         return latency_cell(s.sensitive_latency_max_ns, off != nullptr && &s != off
                                                             ? off->sensitive_latency_max_ns
                                                             : std::nullopt);
       }},
      {"traffic latency mean (ns)",
       [&](const Summary& s) {
         return latency_cell(s.traffic_latency_mean_ns, off != nullptr && &s != off
                                                            ? off->traffic_latency_mean_ns
                                                            : std::nullopt);
       }},
      {"bytes moved", [](const Summary& s) { return format_bytes(double(s.bytes_moved)); }},
      {"bytes reversed", [](const Summary& s) { return format_bytes(double(s.bytes_reversed)); }},
      {"rounds acted", [](const Summary& s) { return std::to_string(s.rounds_acted); }},
      {"final latency spread",
       [](const Summary& s) {
         return s.final_latency_spread ? fmt::format("{:.2f}", *s.final_latency_spread) : "-";
       }},
      {"settle (s)",
       [](const Summary& s) {
         // Blank where no round ran or nothing happened to settle from; "never" only for a
         // run still moving at its end.
         if (s.rounds == 0 || !s.had_events) {
           return std::string();
         }
         return s.settle_seconds ? fmt::format("{:.0f}", *s.settle_seconds) : std::string("never");
       }},
      {"rounds deferred", [](const Summary& s) { return std::to_string(s.rounds_deferred); }},
      {"effects improved", [](const Summary& s) { return effect_count(s, "improved"); }},
      {"effects not improved", [](const Summary& s) { return effect_count(s, "not_improved"); }},
      {"effects unknown", [](const Summary& s) { return effect_count(s, "unknown"); }},
  };
  std::set<std::string> statuses;
  for (const auto& [name, summary] : modes) {
    for (const auto& [status, count] : summary.rounds_by_status) {
      statuses.insert(status);
    }
  }
  for (const std::string& status : statuses) {
    rows.emplace_back("rounds " + status, [status](const Summary& s) {
      auto it = s.rounds_by_status.find(status);
      return std::to_string(it == s.rounds_by_status.end() ? 0 : it->second);
    });
  }
  std::string out = fmt::format("scenario {}\n{:<28}", scenario, "");
  for (const auto& [name, summary] : modes) {
    out += fmt::format("  {:>18}", name);
  }
  out += '\n';
  for (const auto& [label, cell] : rows) {
    out += fmt::format("{:<28}", label);
    for (const auto& [name, summary] : modes) {
      out += fmt::format("  {:>18}", cell(summary));
    }
    out += '\n';
  }
  return out;
}

}  // namespace nb::sim
