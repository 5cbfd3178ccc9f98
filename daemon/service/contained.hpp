#pragma once
// The loop thread's last line of defence: an exception that escaped the code finishing a round,
// finishing a job or reloading would leave io.run() and end the daemon with every job and client.
// Instead it is logged once, counted under `during` (numabalancer_internal_errors_total), and the
// caller decides how to leave its state consistent.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/service/export/metrics_export.hpp"

namespace nb::service {

// Runs `body`. Returns the message of what it threw, or nothing when it returned normally.
std::optional<std::string> run_contained(Activity during, DaemonCounters& counters,
                                         const std::function<void()>& body);

}  // namespace nb::service
