#pragma once
// A round whose effect was measured (or could not be): its log line and its counter's result.

#include "daemon/rounds/round_record.hpp"
#include "daemon/service/export/metrics_export.hpp"

namespace nb::service {

void log_effect(const rounds::RoundRecord& record);

}  // namespace nb::service
