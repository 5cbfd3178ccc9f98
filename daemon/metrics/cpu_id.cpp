#include "daemon/metrics/cpu_id.hpp"

#include <cstdio>
#include <optional>

#include "daemon/metrics/text_file.hpp"

namespace nb::metrics {

std::string to_string(const CpuId& cpu) {
  char model_hex[16];
  std::snprintf(model_hex, sizeof(model_hex), "0x%x", cpu.model);
  return cpu.vendor + " family " + std::to_string(cpu.family) + " model " +
         std::to_string(cpu.model) + " (" + model_hex + ")";
}

Result<CpuId> parse_cpuinfo(std::string_view text) {
  // Every processor repeats the same keys; the first of each is the first processor's.
  std::optional<std::string> vendor;
  std::optional<std::uint64_t> family;
  std::optional<std::uint64_t> model;
  while (!text.empty() && !(vendor && family && model)) {
    auto newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
    auto colon = line.find(':');
    if (colon == std::string_view::npos) {
      continue;
    }
    std::string key = trim(line.substr(0, colon));
    std::string value = trim(line.substr(colon + 1));
    if (key == "vendor_id" && !vendor) {
      vendor = value;
    } else if ((key == "cpu family" && !family) || (key == "model" && !model)) {
      auto number = parse_unsigned(value, "cpuinfo " + key);
      if (!number) {
        return number.error();
      }
      (key == "model" ? model : family) = *number;
    }
  }
  if (!vendor || !family || !model) {
    return make_error(0, "cpuinfo names no vendor_id, cpu family and model");
  }
  return CpuId{*vendor, static_cast<unsigned>(*family), static_cast<unsigned>(*model)};
}

Result<CpuId> read_cpu_id(const std::filesystem::path& host_root) {
  auto path = host_root / "proc/cpuinfo";
  auto text = read_text_file(path);
  if (!text) {
    return text.error();
  }
  auto cpu = parse_cpuinfo(*text);
  if (!cpu) {
    return make_error(0, path.string() + ": " + cpu.error().context);
  }
  return cpu;
}

}  // namespace nb::metrics
