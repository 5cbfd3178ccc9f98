#pragma once
// The CPU as <root>/proc/cpuinfo names it: the first processor's `vendor_id`, `cpu family` and
// `model`. A host's sockets carry one model, and the perf provider's built-in uncore events are
// keyed by it.

#include <filesystem>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace nb::metrics {

struct CpuId {
  std::string vendor;  // "GenuineIntel", "AuthenticAMD"
  unsigned family = 0;
  unsigned model = 0;

  bool operator==(const CpuId&) const = default;
};

// "GenuineIntel family 6 model 143 (0x8f)": decimal as cpuinfo writes it, hex as vendors' tables.
std::string to_string(const CpuId& cpu);

Result<CpuId> parse_cpuinfo(std::string_view text);

Result<CpuId> read_cpu_id(const std::filesystem::path& host_root);

}  // namespace nb::metrics
