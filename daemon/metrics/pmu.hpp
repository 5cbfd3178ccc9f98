#pragma once
// A perf PMU as sysfs describes it under <root>/sys/bus/event_source/devices/<name>/:
// `type` (the perf_event_attr.type), `cpumask` (the CPUs to open its events on, one per
// socket or die for uncore PMUs), `format/<field>` ("config:0-7", "config1:0-3,32-35") and
// `events/<name>` ("event=0x04,umask=0x03") with optional `<name>.scale` and `<name>.unit`.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/result.hpp"

namespace nb::metrics {

// Where a format field's value goes: bit ranges of config, config1 or config2, low bits first.
struct PmuFormatField {
  int word = 0;  // 0 = config, 1 = config1, 2 = config2
  std::vector<std::pair<int, int>> bit_ranges;
};

struct PerfEventConfig {
  std::uint64_t config = 0;
  std::uint64_t config1 = 0;
  std::uint64_t config2 = 0;

  bool operator==(const PerfEventConfig&) const = default;
};

struct Pmu {
  std::string name;
  std::uint32_t type = 0;
  std::set<int> cpus;
  std::map<std::string, PmuFormatField> formats;
  std::map<std::string, std::string> events;  // name -> encoding
  std::map<std::string, double> scales;       // name -> scale, when a .scale file exists
  std::map<std::string, std::string> units;   // name -> unit, when a .unit file exists

  // Turns an encoding ("event=0x04,umask=0x03"; a bare term means =1) into config words, using
  // this PMU's format fields; config, config1 and config2 may also be set directly.
  Result<PerfEventConfig> encode(std::string_view encoding) const;

  // Bytes per count of a named event: its .scale and .unit when sysfs gives them (uncore_imc's
  // cas_count_read reads 6.103515625e-5 MiB, i.e. 64 bytes), otherwise `fallback`.
  double bytes_per_count(const std::string& event, double fallback) const;
};

Result<PmuFormatField> parse_format_field(std::string_view text);

Result<Pmu> read_pmu(const std::filesystem::path& directory);

// Names of the PMUs under `devices` whose name is `prefix` followed by a decimal number
// ("uncore_imc_" matches uncore_imc_0 and uncore_imc_12, not uncore_imc_free_running_0).
std::vector<std::string> find_pmus(const std::filesystem::path& devices, std::string_view prefix);

}  // namespace nb::metrics
