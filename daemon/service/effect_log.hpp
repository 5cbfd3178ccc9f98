#pragma once
// The log line of a round whose effect was measured (or could not be).

#include "daemon/codec/state_file.hpp"

namespace nb::service {

void log_effect(const codec::RoundRecord& record);

}  // namespace nb::service
