#include "daemon/ctl/cells.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "base/human_format.hpp"
#include "base/parse_units.hpp"
#include "base/time.hpp"

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

std::string cell_number(const json& value) {
  return value.is_number() ? nb::format_number(value.get<double>()) : cell_text(value);
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
      return fmt::format("{} (learned, {} readings)", cell_latency(value),
                         cell_text(baseline.value("samples", json())));
    }
    return fmt::format("{} ({})", cell_latency(value), source.empty() ? "-" : source);
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
    return fmt::format("{} {}→{}", verdict, nb::format_number(before.get<double>()),
                       cell_latency(after));
  }
  if (field(round, "effect_pending") == true) {
    return "pending";
  }
  return field(round, "effect_reason").is_string() ? "unknown" : "-";
}

std::string cell_time(const json& value) {
  if (!value.is_string()) {
    return cell_text(value);
  }
  auto time = parse_rfc3339(value.get<std::string>());
  return time ? format_rfc3339_millis(*time) : value.get<std::string>();
}

std::string format_duration_ms(double milliseconds) {
  using namespace std::chrono;
  if (!std::isfinite(milliseconds) || milliseconds < 0) {
    return "-";
  }
  if (milliseconds < 10) {
    return nb::format_number(milliseconds) + "ms";  // a call's stall: its fraction matters
  }
  Duration duration(std::llround(std::min(milliseconds, 1e15)));
  if (duration >= hours(24)) {
    duration = round<hours>(duration);
  } else if (duration >= hours(1)) {
    duration = round<minutes>(duration);
  } else if (duration >= seconds(10)) {
    duration = round<seconds>(duration);
  }
  return exact_duration_text(duration);
}

std::string cell_duration_ms(const json& milliseconds) {
  return milliseconds.is_number() ? format_duration_ms(milliseconds.get<double>()) : "-";
}

std::string cell_latency(const json& nanoseconds) {
  return nanoseconds.is_number() ? nb::format_number(nanoseconds.get<double>()) + " ns" : "-";
}

std::string cell_bandwidth(const json& gigabytes_per_second) {
  return gigabytes_per_second.is_number()
             ? nb::format_number(gigabytes_per_second.get<double>()) + " GB/s"
             : "-";
}

std::string format_rate(double mib_per_s) {
  return fmt::format("{:.0f} MiB/s", mib_per_s);
}

std::string cell_pressure(const json& decision) {
  const json& status = field(decision, "status");
  if (status == "no_metrics" || status == "calibrating") {
    return "unknown";
  }
  return cell_text(field(decision, "level"));
}

std::string cell_verdict(const json& report) {
  if (field(report, "dry_run") == true) {
    const json& would_move = field(report, "would_move_bytes");
    const json& on_source = field(report, "bytes_on_source");
    const json& goal = field(report, "goal");
    if (would_move.is_number()) {
      return "dry run: would move " + cell_bytes(would_move);
    }
    if (on_source.is_number() && goal.is_number()) {
      return "dry run: would move " +
             format_bytes(std::min(on_source.get<double>(), goal.get<double>()));
    }
    return "dry run";
  }
  return field(report, "threshold_met") == true ? "threshold met" : "threshold not met";
}

std::string format_bytes(double bytes) {
  return nb::format_bytes(bytes, ByteDigits::one_fixed);
}

namespace {

// What a cell takes on a terminal: one column per character, not per UTF-8 byte ("→").
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

}  // namespace

std::string format_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(row[i]));
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) {
        line += std::string(widths[i] - display_width(row[i]) + 2, ' ');
      }
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}

}  // namespace nb::ctl
