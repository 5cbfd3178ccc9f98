#include "daemon/service/effect_log.hpp"

#include <spdlog/spdlog.h>

#include "base/human_format.hpp"

namespace nb::service {

void log_effect(const rounds::RoundRecord& record) {
  if (!record.effect) {
    spdlog::info("round {}: no effect measured: {}", record.number, record.effect_reason);
    return;
  }
  const core::RoundEffect& effect = record.effect->effect;
  spdlog::info("round {}: {}: hot latency {} -> {} ns, gap {} -> {} ns, {} moved off node {}",
               record.number, effect.improved ? "improved" : "did not improve",
               format_number(effect.hot_before), format_number(effect.hot_after),
               format_number(effect.gap_before), format_number(effect.gap_after),
               format_bytes(static_cast<double>(record.effect->bytes_moved)),
               record.source_node.value_or(-1));
}

}  // namespace nb::service
