#pragma once
// A round whose effect was measured (or could not be): its log line and its counter's result.

#include "daemon/codec/state_file.hpp"
#include "daemon/service/export/metrics_export.hpp"

namespace nb::service {

void log_effect(const codec::RoundRecord& record);
EffectResult effect_result_of(const codec::RoundRecord& record);

}  // namespace nb::service
