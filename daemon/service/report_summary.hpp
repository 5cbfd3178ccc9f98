#pragma once
// The part of a migration report the daemon keeps with each round and shows in `status`,
// `history` and job events: totals, per-destination bytes, outcome counts and errors.

#include <nlohmann/json.hpp>

#include "actuator/migration_job.hpp"
#include "actuator/migration_report.hpp"

namespace nb::service {

nlohmann::json report_summary(const actuator::MigrationReport& report);
nlohmann::json progress_json(const actuator::JobProgress& progress);

}  // namespace nb::service
