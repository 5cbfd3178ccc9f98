#include "core/latency_kind.hpp"

#include <array>

namespace nb::core {

namespace {

constexpr std::array kKinds = {LatencyKind::memory_controller_queue, LatencyKind::cache_miss,
                               LatencyKind::load_to_use, LatencyKind::external};

}  // namespace

std::string_view to_string(LatencyKind kind) {
  switch (kind) {
    case LatencyKind::memory_controller_queue:
      return "memory_controller_queue";
    case LatencyKind::cache_miss:
      return "cache_miss";
    case LatencyKind::load_to_use:
      return "load_to_use";
    case LatencyKind::external:
      return "external";
  }
  return "unknown";
}

std::optional<LatencyKind> latency_kind_from(std::string_view name) {
  for (LatencyKind kind : kKinds) {
    if (to_string(kind) == name) {
      return kind;
    }
  }
  return std::nullopt;
}

}  // namespace nb::core
