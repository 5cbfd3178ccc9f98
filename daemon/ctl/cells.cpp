#include "daemon/ctl/cells.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/human_format.hpp"

namespace nb::ctl {

using nlohmann::json;

const json& field(const json& object, std::string_view key) {
  static const json absent;
  if (!object.is_object()) {
    return absent;
  }
  auto it = object.find(key);
  return it == object.end() ? absent : *it;
}

std::string cell_text(const json& value) {
  if (value.is_null()) {
    return "-";
  }
  if (value.is_string()) {
    return value.get<std::string>();
  }
  return value.dump();
}

std::string cell_nodes(const json& list) {
  if (!list.is_array() || list.empty()) {
    return "-";
  }
  std::string out;
  for (const auto& node : list) {
    out += (out.empty() ? "" : ",") + cell_text(node);
  }
  return out;
}

std::string cell_bytes(const json& value) {
  return value.is_number() ? format_bytes(value.get<double>()) : "-";
}

std::string cell_baseline(const json& baseline) {
  if (!baseline.is_object()) {
    return "-";
  }
  const json& value = baseline.value("read_latency_ns", json());
  const std::string source = baseline.value("source", json()).is_string()
                                 ? field(baseline, "source").get<std::string>()
                                 : std::string();
  if (value.is_number()) {
    if (source == "learned") {
      return fmt::format("{:.1f} ns (learned, {} readings)", value.get<double>(),
                         cell_text(baseline.value("samples", json())));
    }
    return fmt::format("{:.1f} ns ({})", value.get<double>(), source.empty() ? "-" : source);
  }
  const json& needed = baseline.value("samples_needed", json());
  return needed.is_number() ? "learning: " + needed.dump() + " more" : "-";
}

std::string cell_effect(const json& round) {
  const json& effect = field(round, "effect");
  if (effect.is_object()) {
    const json& before = field(effect, "hot_before");
    const json& after = field(effect, "hot_after");
    const std::string verdict = field(effect, "improved") == true ? "improved" : "not improved";
    if (!before.is_number() || !after.is_number()) {
      return verdict;
    }
    return fmt::format("{} {:.0f}→{:.0f} ns", verdict, before.get<double>(), after.get<double>());
  }
  if (field(round, "effect_pending") == true) {
    return "pending";
  }
  return field(round, "effect_reason").is_string() ? "unknown" : "-";
}

std::string format_bytes(double bytes) {
  return nb::format_bytes(bytes, ByteDigits::one_fixed);
}

std::string format_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], row[i].size());
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) {
        line += std::string(widths[i] - row[i].size() + 2, ' ');
      }
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace nb::ctl
