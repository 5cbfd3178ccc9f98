#include "daemon/codec/explain.hpp"

#include <string>
#include <vector>

#include "core/describe.hpp"

namespace nb::codec {

namespace {

std::string headline(const core::Decision& decision) {
  std::string text = "Decision: " + std::string(core::to_string(decision.status));
  if (decision.level != core::PressureLevel::none) {
    text += ", " + std::string(core::to_string(decision.level)) + " pressure";
  }
  if (decision.bandwidth_level) {
    text += ", bandwidth " + std::string(core::to_string(*decision.bandwidth_level));
  }
  if (decision.bandwidth_pressure) {
    text += " (bandwidth pressure)";
  }
  if (!decision.reason.empty()) {
    text += " - " + decision.reason;
  }
  return text + "\n";
}

std::string plan(const core::Decision& decision) {
  if (decision.migrate.empty() && decision.evict.empty()) {
    return "";
  }
  const std::string source =
      decision.source_node ? "node " + std::to_string(*decision.source_node) : "the source node";
  std::string text = "Plan:";
  if (!decision.migrate.empty()) {
    text += " " + format_bytes(decision.total_bytes) + " from " + source + " to " +
            core::describe_node_set(decision.dest_nodes) + " (actuator threshold " +
            format_number(decision.threshold) + ")";
  }
  text += "\n";
  for (std::size_t i = 0; i < decision.migrate.size(); ++i) {
    const core::ContainerMove& move = decision.migrate[i];
    text += "  " + std::to_string(i + 1) + ". migrate " + move.id + ", " +
            format_bytes(move.bytes_on_source) + " to " + core::describe_node_set(move.dest_nodes) +
            "\n";
  }
  for (const core::ContainerEviction& eviction : decision.evict) {
    text += "  evict " + eviction.id + ", " + format_bytes(eviction.bytes_on_source) + " on " +
            source + "\n";
  }
  return text;
}

}  // namespace

std::string format_explanation(const core::Decision& decision) {
  std::string text = headline(decision);
  if (!decision.explanation.empty()) {
    text += "Why:\n";
    for (const std::string& line : decision.explanation) {
      text += "  " + line + "\n";
    }
  }
  return text + plan(decision);
}

void explain_unavailable_metrics(core::Decision& decision,
                                 std::span<const host::ProviderReport> providers) {
  std::vector<std::string> lines;
  for (const host::ProviderReport& provider : providers) {
    if (!provider.available) {
      lines.push_back(std::string(metrics::to_string(provider.metric)) + " unavailable: " +
                      (provider.reason.empty() ? "no reason given" : provider.reason));
    }
  }
  decision.explanation.insert(decision.explanation.begin(), lines.begin(), lines.end());
}

}  // namespace nb::codec
