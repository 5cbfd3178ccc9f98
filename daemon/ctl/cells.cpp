#include "daemon/ctl/cells.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace nb::ctl {

using nlohmann::json;

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

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  double value = bytes;
  while (std::abs(value) >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) {
    return fmt::format("{:.0f} B", value);
  }
  return fmt::format("{:.1f} {}", value, units[unit]);
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
