#include "core/latency_kind.hpp"

#include "base/enum_names.hpp"

namespace nb::core {

namespace {

constexpr EnumName<LatencyKind> kKindNames[] = {
    {LatencyKind::memory_controller_queue, "memory_controller_queue"},
    {LatencyKind::cache_miss, "cache_miss"},
    {LatencyKind::load_to_use, "load_to_use"},
    {LatencyKind::external, "external"}};
static_assert(names_every_value(kKindNames));

}  // namespace

std::string_view to_string(LatencyKind kind) {
  return name_of(kKindNames, kind);
}

std::optional<LatencyKind> latency_kind_from(std::string_view name) {
  return value_named(kKindNames, name);
}

}  // namespace nb::core
